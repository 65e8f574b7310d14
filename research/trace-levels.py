#!/usr/bin/env python3
"""What knowing each source's level is worth on a trace, by how local the
level is: the square-root rule's mean delay over round robin's for Poisson
sources, (sum sqrt(r))^2 / (n sum r) per period (n: every source of the
trace), item-weighted over the periods; for the whole window, months, weeks
and days. Also how the trace's sources grow (items in the last month over the
first, by rate class) and how regular they are (daily counts' variance over
mean, within each week, for sources of 1-4 and 4+ items a day).

    python3 research/trace-levels.py ../shared/data/traces/reddit-2012h2.csv.gz
"""
import collections
import gzip
import math
import sys


def ratio(counts, n):
    tot = sum(counts.values())
    if tot == 0:
        return None, 0
    sq = sum(math.sqrt(v) for v in counts.values())
    return sq * sq / (n * tot), tot


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    items = collections.defaultdict(list)
    with opener(path, "rt") as f:
        next(f)
        for line in f:
            p = line.rstrip("\n").split(",")
            items[p[0]].append(float(p[1]))
    n = len(items)
    t0 = min(min(v) for v in items.values())
    t1 = max(max(v) for v in items.values())
    days = (t1 - t0) / 86400
    total = sum(len(v) for v in items.values())
    print(f"{path}: {n} sources, {total} items, {days:.0f} days, {total / n:.1f} items per source")
    for name, span in (("window", None), ("30 days", 30), ("7 days", 7), ("1 day", 1)):
        per = collections.defaultdict(collections.Counter)
        for s, v in items.items():
            for t in v:
                k = 0 if span is None else int((t - t0) // (span * 86400))
                per[k][s] += 1
        num = den = 0
        for k, c in per.items():
            r, tot = ratio(c, n)
            if r is not None:
                num += r * tot
                den += tot
        print(f"  level known per {name:8s}: sqrt rule / round robin {num / den:.3f}")
    # Growth: the last 30 days over the first 30, by the source's mean rate.
    cls = collections.defaultdict(lambda: [0, 0, 0])
    for s, v in items.items():
        rate = len(v) / days
        k = "<0.25/d" if rate < 0.25 else "0.25-1/d" if rate < 1 else "1-4/d" if rate < 4 else ">=4/d"
        a = sum(1 for t in v if t < t0 + 30 * 86400)
        b = sum(1 for t in v if t >= t1 - 30 * 86400)
        cls[k][0] += 1
        cls[k][1] += a
        cls[k][2] += b
    for k in ("<0.25/d", "0.25-1/d", "1-4/d", ">=4/d"):
        c = cls[k]
        print(f"  {k:9s} {c[0]:5d} sources: first 30 days {c[1]:7d} items, last 30 {c[2]:7d} "
              f"(x{c[2] / max(c[1], 1):.2f})")
    # Regularity: daily counts within each week, variance over mean (1: Poisson).
    for lo, hi in ((1, 4), (4, 1e9)):
        vs = ms = 0
        for s, v in items.items():
            rate = len(v) / days
            if not (lo <= rate < hi):
                continue
            d = collections.Counter(int((t - t0) // 86400) for t in v)
            for w in range(int(days // 7)):
                x = [d.get(7 * w + i, 0) for i in range(7)]
                m = sum(x) / 7
                if m > 0:
                    vs += sum((y - m) ** 2 for y in x) / 6
                    ms += m
        if ms > 0:
            print(f"  sources of {lo}-{hi if hi < 1e9 else 'more'} a day: daily counts' variance / mean "
              f"within weeks {vs / ms:.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: trace-levels.py TRACE.csv[.gz]")
    main(sys.argv[1])
