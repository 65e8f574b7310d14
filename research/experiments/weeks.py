#!/usr/bin/env python3
"""weeks.py - each run's mean delay over groups of weeks, from the JSON of
`freshet simulate --format json` (one or more files), each week's mean
weighted by the items it found; weeks by publication; one decimal.

    build/freshet simulate --world W --policy freshet,oracle,air-balloon:inertia=1228850 \\
        --format json > runs.json
    python3 research/experiments/weeks.py runs.json

Groups: weeks 1, 2, 3-4, 5-8, 9-13, 14-18, 19 to the end, and all.
"""
import json
import sys

GROUPS = ((0, 1), (1, 2), (2, 4), (4, 8), (8, 13), (13, 18), (18, None), (0, None))


def mean(weeks):
    n = sum(w["fetched"] for w in weeks)
    return sum(w["delay_mean_s"] * w["fetched"] for w in weeks if w["fetched"]) / n if n else float("nan")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().split("\n\n")[1])
    runs = []
    for path in sys.argv[1:]:
        with open(path) as f:
            runs += [(r["policy"], r.get("params", {}), path, r["weekly"])
                     for r in json.load(f)["runs"]]
    # A policy run more than once is told apart by the parameters that
    # differ between its runs, else by its file.
    labels = []
    for name, params, path, _ in runs:
        same = [p for n, p, _, _ in runs if n == name]
        keys = sorted(k for k in params if any(p.get(k) != params[k] for p in same))
        label = name + "".join(":%s=%s" % (k, params[k]) for k in keys)
        labels.append(label)
    runs = [(label if labels.count(label) == 1 else "%s (%s)" % (label, path), w)
            for label, (_, _, path, w) in zip(labels, runs)]
    print(" | ".join(["weeks"] + [name for name, _ in runs]))
    for a, b in GROUPS:
        n = len(runs[0][1])
        end = n if b is None else min(b, n)
        label = "all" if (a, b) == (0, None) else \
            "%d" % (a + 1) if end == a + 1 else "%d-%d" % (a + 1, end)
        print(" | ".join([label] + ["%.1f" % mean(w[a:end]) for _, w in runs]))


if __name__ == "__main__":
    main()
