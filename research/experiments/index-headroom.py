#!/usr/bin/env python3
"""index-headroom.py - how much a better fetch-timing rule than the
square-root index could gain on a world's daily and weekly rhythms, with
the true rates (an upper bound for the oracle, and so for freshet).

    build/freshet world --out W
    build/freshet simulate --world W --policy oracle --per-source ps.csv
    python3 research/experiments/index-headroom.py W/world.csv ps.csv oracle

Needs numpy (Debian: python3-numpy). About a minute and a half.

One source alone, under a price mu per fetch (the Lagrangian of the shared
budget; the scheduler's threshold theta plays its part), with the world's
hourly shape raised to a sharpness and its weekday shares, fetches allowed
every 10 minutes as in burst mode, over 3 weeks. For each sharpness and
number of fetches a day it compares the mean delay of three rules at the
same number of fetches:

- the index freshet and the oracle use (docs/freshet.md, "The index"):
  fetch when U(t), the expected total waiting time of the items published
  since the last fetch, reaches theta;
- the best schedule, by dynamic programming over the fetch instants (the
  cost of an interval is what U measures; every fetch costs mu);
- a first-order correction: U times n(t) / (lambda(t) x(t)), where n is the
  items pending, lambda the rate of the next slot, and x the interval U
  would give after a fetch now. The best schedule satisfies n = lambda x at
  every fetch: moving a fetch later keeps the pending items waiting and
  lets the next slot's items in.

It then weights each ratio by the delay the run of POLICY in the
--per-source file spent on each source (at that source's fetches a day
and the world's sharpness for it) and prints the seconds of mean delay
each rule would take off. Time zones are ignored (the weekday shares then
fall on the UTC day), and the rates of a source are taken as constant in
level, as for the world's stable sources.
"""
import csv
import sys

import numpy as np

SLOTS_PER_HOUR = 6  # 10-minute decision points: the bursts of the benchmark
WEEKS = 3
SHARPNESS = [0.3, 0.5, 0.7, 1.0, 1.4, 2.0, 2.8]
FETCHES_PER_DAY = [4, 8, 14, 25, 45, 80]


def read_world(path):
    """The world's parameters ('# key=value' lines) and its sources by name."""
    params = {}
    body = []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("# ") and "=" in line:
                key, value = line[2:].split("=", 1)
                params[key] = value.strip()
            elif not line.startswith("#"):
                body.append(line)
    for key in ("hour_profile", "weekday_profile", "days"):
        if key not in params:
            sys.exit(f"{path}: no {key} line")
    return params, {r["source"]: r for r in csv.DictReader(body)}


def slot_rates(hours, weekdays, sharp):
    """Items per 10-minute slot over a Monday-based week, 1 item a day."""
    day = (hours / hours.max()) ** sharp
    day = day * 24 / day.sum()
    week = np.array([day[k % 24] * weekdays[k // 24] for k in range(168)])
    return np.repeat(week, SLOTS_PER_HOUR) / SLOTS_PER_HOUR


def index_times(lam, theta):
    """Fetch slots of the threshold rule on U."""
    L = np.tile(lam, WEEKS)
    u = pending = 0.0
    out = []
    for i, x in enumerate(L):
        u += pending + x * 0.5  # items arrive evenly within a slot
        pending += x
        if u >= theta:
            out.append(i + 1)
            u = pending = 0.0
    return out


def corrected_times(lam, theta):
    """Fetch slots of the first-order correction (U >= 0.3 theta first)."""
    L = np.tile(lam, WEEKS + 3)

    def next_interval(t):
        u = p = 0.0
        k = t
        while True:
            u += p + L[k] * 0.5
            p += L[k]
            k += 1
            if u >= theta or k - t > 1500:
                return k - t

    u = pending = 0.0
    out = []
    for i in range(len(lam) * WEEKS):
        u += pending + L[i] * 0.5
        pending += L[i]
        t = i + 1
        if u < 0.3 * theta:
            continue
        ratio = (pending + 1e-12) / (L[t] * next_interval(t) + 1e-12)
        if u * ratio >= theta:
            out.append(t)
            u = pending = 0.0
    return out


def best_times(lam, mu, maxgap=1000):
    """The fetch slots minimising waiting + mu x fetches (shortest path)."""
    L = np.tile(lam, WEEKS)
    n = len(L)
    cs = np.concatenate([[0], np.cumsum(L)])
    ics = np.concatenate([[0], np.cumsum(L * np.arange(n))])
    best = np.full(n + 1, np.inf)
    best[0] = 0
    prev = np.zeros(n + 1, int)
    for b in range(1, n + 1):
        a = np.arange(max(0, b - maxgap), b)
        cost = (b - 0.5) * (cs[b] - cs[a]) - (ics[b] - ics[a])
        v = best[a] + cost + mu
        j = np.argmin(v)
        best[b] = v[j]
        prev[b] = a[j]
    out = []
    b = n
    while b > 0:
        out.append(b)
        b = prev[b]
    return out[::-1]


def mean_delay(lam, times):
    L = np.tile(lam, WEEKS)
    cs = np.concatenate([[0], np.cumsum(L)])
    ics = np.concatenate([[0], np.cumsum(L * np.arange(len(L)))])
    total = 0.0
    a = 0
    for b in list(times) + [len(L)]:
        total += (b - 0.5) * (cs[b] - cs[a]) - (ics[b] - ics[a])
        a = b
    return total / cs[-1]


def at_rate(rule, lam, per_day):
    """The rule's schedule with per_day fetches a day (bisection on theta)."""
    lo, hi = 1e-4, 1e3
    for _ in range(40):
        mid = (lo * hi) ** 0.5
        if len(rule(lam, mid)) / (7 * WEEKS) > per_day:
            lo = mid
        else:
            hi = mid
    return rule(lam, (lo * hi) ** 0.5)


def interp(table, sharp, per_day):
    ls = np.clip(np.log(sharp), np.log(SHARPNESS[0]), np.log(SHARPNESS[-1]))
    lf = np.clip(np.log(per_day), np.log(FETCHES_PER_DAY[0]), np.log(FETCHES_PER_DAY[-1]))
    row = [np.interp(lf, np.log(FETCHES_PER_DAY), table[i]) for i in range(len(SHARPNESS))]
    return np.interp(ls, np.log(SHARPNESS), row)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: index-headroom.py WORLD_CSV PER_SOURCE_CSV POLICY")
    params, world = read_world(sys.argv[1])
    hours = np.array([float(x) for x in params["hour_profile"].split()])
    weekdays = np.array([float(x) for x in params["weekday_profile"].split()])
    days = float(params["days"])
    best = np.zeros((len(SHARPNESS), len(FETCHES_PER_DAY)))
    corr = np.zeros_like(best)
    print("sharpness fetches/day  best/index  corrected/index")
    for i, s in enumerate(SHARPNESS):
        lam = slot_rates(hours, weekdays, s)
        for j, f in enumerate(FETCHES_PER_DAY):
            base = mean_delay(lam, at_rate(index_times, lam, f))
            best[i, j] = mean_delay(lam, at_rate(best_times, lam, f)) / base
            corr[i, j] = mean_delay(lam, at_rate(corrected_times, lam, f)) / base
            print(f"{s:9.1f} {f:13d} {best[i, j]:11.3f} {corr[i, j]:16.3f}", flush=True)
    items = gain_best = gain_corr = 0.0
    with open(sys.argv[2], newline="") as f:
        for r in csv.DictReader(f):
            if r["policy"] != sys.argv[3]:
                continue
            src = world[r["source"]]
            sharp = float(src["sharpness"])
            per_day = int(r["requests"]) / days
            delay = float(r["delay_sum_s"])
            items += int(r["fetched"])
            gain_best += delay * (1 - interp(best, sharp, per_day))
            gain_corr += delay * (1 - interp(corr, sharp, per_day))
    if not items:
        sys.exit(f"{sys.argv[2]}: no rows of policy {sys.argv[3]}")
    print(f"{sys.argv[3]}: {int(items)} items; the best schedule would take "
          f"{gain_best / items:.1f} s off its mean delay, the correction "
          f"{gain_corr / items:.1f} s")


if __name__ == "__main__":
    main()
