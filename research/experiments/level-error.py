#!/usr/bin/env python3
"""level-error.py - how far a policy's learned rates are from a world's true
ones, for the sources whose rate never moves, by true rate; and, for a run
cut at day D, the least error the items up to then allow (the bound).

    build/freshet world --out W
    for end in 2012-10-02 2012-10-08; do
        build/freshet simulate --world W --policy freshet --end ${end}T00:00:00Z \\
            --format csv --per-source ps-$end.csv
    done
    build/freshet simulate --world W --policy freshet --format csv --per-source ps.csv
    python3 research/experiments/level-error.py W/world.csv freshet \\
        ps-2012-10-02.csv:1 ps-2012-10-08.csv:7 ps.csv

Each FILE[:D] is a --per-source file; the error is the log of the learned
rate (rate_per_day) over the true rate times the share follow-ups add (the
median of learned over true for the stable sources of 8 a day and more in
the last file), printed as mean / RMS. With :D the bound follows: the
posterior mean of each rate under the world's own population of rates (a
lognormal fitted to them) given a Poisson count of D days of its true rate,
three draws per source from a fixed seed.
"""
import csv
import math
import random
import statistics as st
import sys

CLASSES = ((0, 0.25, "< 0.25/day"), (0.25, 1, "0.25-1/day"), (1, 4, "1-4/day"),
           (4, 16, "4-16/day"), (16, math.inf, ">= 16/day"))


def world_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def learned(path, policy):
    with open(path, newline="") as f:
        out = {r["source"]: float(r["rate_per_day"]) for r in csv.DictReader(f)
               if r["policy"] == policy and r["rate_per_day"]}
    if not out:
        sys.exit("level-error: no learned rates of policy '%s' in %s" % (policy, path))
    return out


def poisson(rng, mean):
    if mean > 50:
        return max(0, int(round(rng.gauss(mean, math.sqrt(mean)))))
    limit, k, p = math.exp(-mean), 0, 1.0
    while True:
        p *= rng.random()
        if p < limit:
            return k
        k += 1


def mean_rms(e):
    return "%5.2f / %4.2f" % (st.mean(e), math.sqrt(st.mean(x * x for x in e)))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().split("\n\n")[1])
    world, policy, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows = world_rows(world)
    start = min(float(w["start_s"]) for w in rows)
    stable = [(w["source"], float(w["rate_per_day"])) for w in rows
              if float(w["start_s"]) == start and w["stop_s"] == "inf" and w["change_at_s"] == "inf"]
    runs = []
    for spec in files:
        path, _, days = spec.partition(":")
        runs.append((path, float(days) if days else None, learned(path, policy)))
    last = runs[-1][2]
    share = st.median(last[s] / r for s, r in stable if r > 8)
    print("follow-up share: learned / true = %.3f (stable sources of 8 a day and more)" % share)

    # The world's population of total rates, and the bound's grid over it.
    logs = [math.log(share * float(w["rate_per_day"])) for w in rows]
    mu, sd = st.mean(logs), st.pstdev(logs)
    grid = [mu + sd * (-6 + 12 * i / 400) for i in range(401)]
    prior = [math.exp(-(x - mu) ** 2 / (2 * sd * sd)) for x in grid]

    def posterior_mean(k, days):
        lw = [k * x - math.exp(x) * days for x in grid]
        top = max(lw)
        w = [p * math.exp(v - top) for p, v in zip(prior, lw)]
        return sum(wi * math.exp(x) for wi, x in zip(w, grid)) / sum(w)

    rng = random.Random(1)
    print("population of rates: lognormal, log mean %.2f, sd %.2f" % (mu, sd))
    header = ["true rate"]
    for path, days, _ in runs:
        header.append(path)
        if days is not None:
            header.append("bound, day %g" % days)
    table = {c[2]: [] for c in CLASSES}
    for path, days, rates in runs:
        for lo, hi, name in CLASSES:
            cls = [(s, r) for s, r in stable if lo <= r < hi]
            table[name].append(mean_rms([math.log(rates[s] / (share * r)) for s, r in cls]))
            if days is None:
                continue
            e = []
            for _ in range(3):
                for _, r in cls:
                    lam = share * r
                    e.append(math.log(posterior_mean(poisson(rng, lam * days), days) / lam))
            table[name].append(mean_rms(e))
    print(" | ".join(header))
    for _, _, name in CLASSES:
        print(" | ".join([name] + table[name]))


if __name__ == "__main__":
    main()
