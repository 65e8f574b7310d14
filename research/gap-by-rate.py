#!/usr/bin/env python3
"""Where freshet's gap to another run lies on a trace, by the source's items
a day over the run: each class's share of the item-weighted mean delay gap
(the shares add up to the whole), from simulate --per-source.

    build/freshet simulate --trace T --policy round-robin,freshet,oracle --per-source ps.csv
    python3 research/gap-by-rate.py ps.csv DAYS freshet oracle round-robin
"""
import collections
import csv
import sys


def main(path, days, a, b, rr):
    rows = collections.defaultdict(dict)
    with open(path) as f:
        for r in csv.DictReader(f):
            rows[r["policy"]][r["source"]] = r
    total = sum(int(r["fetched"]) for r in rows[a].values())
    edges = [(0, 0.25), (0.25, 1), (1, 2), (2, 4), (4, 1e9)]
    print(f"{'items/day':>10} {'sources':>8} {'items':>8} {a:>9} {b:>9} {rr:>9} "
          f"{a + '-' + b:>16} {a + '-' + rr:>16}")
    for lo, hi in edges:
        g = [s for s, r in rows[a].items() if lo <= int(r["items"]) / days < hi]
        items = sum(int(rows[a][s]["fetched"]) for s in g)
        if items == 0:
            continue
        da = sum(float(rows[a][s]["delay_sum_s"]) for s in g)
        db = sum(float(rows[b][s]["delay_sum_s"]) for s in g)
        dr = sum(float(rows[rr][s]["delay_sum_s"]) for s in g)
        print(f"{lo:>4}-{hi if hi < 1e9 else '':<5} {len(g):8d} {items:8d} {da / items:9.0f} "
              f"{db / items:9.0f} {dr / items:9.0f} {(da - db) / total:16.1f} {(da - dr) / total:16.1f}")


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit("usage: gap-by-rate.py PS.csv DAYS A B RR")
    main(sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5])
