#!/usr/bin/env python3
"""gap-by-class.py - where one policy's mean delay differs from another's, by
kind of source, on a world whose true rates are known.

    build/freshet world --out W
    build/freshet simulate --world W --policy freshet,oracle --per-source ps.csv
    python3 research/experiments/gap-by-class.py ps.csv W/world.csv freshet oracle

For each group of sources (by true rate, by what happens to them in the run,
by time zone and by sharpness of their daily rhythm) it prints the group's
sources and items, each policy's mean delay over the group's items, its
calls, and the group's share of the difference in the overall mean delay,
in seconds: the shares of one grouping add up to the whole difference.
"""
import csv
import sys


def world_rows(path):
    with open(path, newline="") as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return {r["source"]: r for r in rows}


def per_source(path, policy):
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["policy"] == policy:
                out[r["source"]] = (int(r["items"]), float(r["delay_sum_s"]),
                                    int(r["requests"]))
    if not out:
        sys.exit("gap-by-class: no rows of policy '%s' in %s" % (policy, path))
    return out


# Each grouping's key gives (rank, label): the rows print in rank order.
def rate_class(w):
    r = float(w["rate_per_day"])
    for i, (hi, name) in enumerate(((0.25, "< 0.25/day"), (1, "0.25-1/day"), (4, "1-4/day"),
                                    (16, "4-16/day"))):
        if r < hi:
            return i, name
    return 4, ">= 16/day"


def events(w, start):
    e = []
    if float(w["start_s"]) > start:
        e.append("starts late")
    if w["stop_s"] != "inf":
        e.append("stops")
    if w["change_at_s"] != "inf":
        e.append("changes rate")
    return len(e), " + ".join(e) or "stable"


def sharpness(w):
    s = float(w["sharpness"])
    return (0, "< 0.7") if s < 0.7 else (1, "0.7-1.4") if s < 1.4 else (2, ">= 1.4")


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().split("\n\n")[1])
    ps, world, pa, pb = sys.argv[1:]
    W = world_rows(world)
    A, B = per_source(ps, pa), per_source(ps, pb)
    start = min(float(w["start_s"]) for w in W.values())
    items = sum(a[0] for a in A.values())
    total = (sum(a[1] for a in A.values()) - sum(b[1] for b in B.values())) / items
    print("%s mean delay minus %s's: %.1f s over %d items" % (pa, pb, total, items))
    groupings = (("true rate", rate_class), ("in the run", lambda w: events(w, start)),
                 ("time zone", lambda w: (1, "shifted") if w["tz_shift_h"] != "0" else (0, "not shifted")),
                 ("sharpness", sharpness))
    for title, key in groupings:
        g = {}
        for s, w in W.items():
            if s not in A or s not in B:
                continue
            k = key(w)
            x = g.setdefault(k, [0, 0, 0.0, 0.0, 0, 0])
            x[0] += 1
            x[1] += A[s][0]
            x[2] += A[s][1]
            x[3] += B[s][1]
            x[4] += A[s][2]
            x[5] += B[s][2]
        print("\n%-34s %7s %9s %10s %10s %11s %11s %9s" %
              (title, "sources", "items", pa[:10] + " s", pb[:10] + " s", pa[:7] + " calls",
               pb[:7] + " calls", "share s"))
        for k in sorted(g):
            x = g[k]
            n = max(x[1], 1)
            print("%-34s %7d %9d %10.0f %10.0f %11d %11d %9.1f" %
                  (k[1], x[0], x[1], x[2] / n, x[3] / n, x[4], x[5], (x[2] - x[3]) / items))


if __name__ == "__main__":
    main()
