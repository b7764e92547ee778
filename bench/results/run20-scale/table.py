#!/usr/bin/env python3
"""Run 20's (and later runs') scale tables (scale.txt from run.sh SUITES=scale): per case and
partition count, medians [min-max] of gregor's and franz-go's records/s,
CPU/record and peak RSS, the ratio of the medians, and gregor's mean
in-flight time per Produce request. gregor-snappy pairs with franz
(snappy, franz-go's default codec), gregor with franz-none."""
import os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'run19'))
from table import load, med, fmt, ratio  # run 19's helpers (medians [min-max])

# Usage: table.py [dir]: the tables of dir's scale.txt (default this run's;
# run 21's: table.py ../run21-scale).
here = os.path.dirname(os.path.abspath(__file__))
d = load(os.path.join(sys.argv[1] if len(sys.argv) > 1 else here, 'scale.txt'))
pairs = [('ScaleConsume', 'gregor', 'franz'), ('ScaleProduce', 'gregor', 'franz-none'),
         ('ScaleProduce', 'gregor-snappy', 'franz')]
for suite, g, f in pairs:
    print(f"\n#### {suite}: {g} beside {f}\n")
    print("| parts | n | gregor records/s | franz-go | ratio | gregor cpu-ns/rec | franz-go | ratio | gregor peak RSS MiB | franz-go | gregor inflight-ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    parts = sorted({int(m.group(1)) for n in d for m in [re.search(rf'{suite}/client={g}/parts=(\d+)$', n)] if m})
    for p in parts:
        gn, fn = f"Benchmark{suite}/client={g}/parts={p}", f"Benchmark{suite}/client={f}/parts={p}"
        gr, fr = med(d, gn, 'records/s'), med(d, fn, 'records/s')
        gc, fc = med(d, gn, 'cpu-ns/rec'), med(d, fn, 'cpu-ns/rec')
        gm, fm = med(d, gn, 'peak-RSS-MiB'), med(d, fn, 'peak-RSS-MiB')
        gi = med(d, gn, 'inflight-ms')
        inflight = f"{gi[0]:.1f} [{gi[1]:.1f}–{gi[2]:.1f}]" if gi else '–'
        print(f"| {p:,} | {gr[3] if gr else 0} | {fmt(gr, 1e3, 'k')} | {fmt(fr, 1e3, 'k')} | {ratio(gr, fr)} | {fmt(gc)} | {fmt(fc)} | {ratio(gc, fc)} | {fmt(gm)} | {fmt(fm)} | {inflight} |")
