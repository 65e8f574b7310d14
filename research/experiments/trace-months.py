#!/usr/bin/env python3
"""How much any policy that knows each source's monthly rate could gain over
round robin on a trace, month by month: the square-root rule's mean delay over
round robin's for Poisson sources of those rates, (sum sqrt(r))^2 / (n sum r),
n the trace's source count (sources without items that month included).

    python3 research/experiments/trace-months.py ../shared/data/traces/reddit-2012h1.csv.gz
"""
import collections
import datetime
import gzip
import math
import sys


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    months = collections.defaultdict(collections.Counter)
    sources = set()
    with opener(path, "rt") as f:
        next(f)  # header: source,time[,weight]
        for lineno, line in enumerate(f, 2):
            parts = line.rstrip("\n").split(",")
            try:
                t = float(parts[1])
            except (IndexError, ValueError):
                print(f"{path}:{lineno}: skipped: not source,time", file=sys.stderr)
                continue
            d = datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
            months[(d.year, d.month)][parts[0]] += 1
            sources.add(parts[0])
    n = len(sources)
    print("month    sources_with_items    items  sqrt_rule/round_robin")
    for (y, m) in sorted(months):
        c = months[(y, m)]
        tot = sum(c.values())
        sq = sum(math.sqrt(v) for v in c.values())
        print(f"{y}-{m:02d} {len(c):21d} {tot:8d} {sq * sq / (n * tot):22.3f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: trace-months.py TRACE.csv[.gz]")
    main(sys.argv[1])
