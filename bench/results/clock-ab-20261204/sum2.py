#!/usr/bin/env python3
"""Medians [min-max] per (case, label) of cpu-ns/rec and records/s, gregor-main, gregor-new, franz (pooled from both)."""
import re, sys, statistics, collections, glob
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for path in sys.argv[1:]:
    label = path.rsplit('/', 1)[-1].rsplit('.', 1)[0].split('-')[-1]
    for line in open(path):
        if not line.startswith('Benchmark'):
            continue
        f = line.split()
        name = re.sub(r'-\d+$', '', f[0])
        m = re.search(r'client=(\w+)', name)
        cl = m.group(1)
        case = name.replace('client=' + cl + '/', '')
        lab = cl + '-' + label if cl == 'gregor' else cl
        for i in range(2, len(f) - 1):
            try:
                v = float(f[i])
            except ValueError:
                continue
            rows[case][(lab, f[i + 1])].append(v)
def md(xs):
    return statistics.median(xs) if xs else float('nan')
for metric in ('cpu-ns/rec', 'records/s', 'p99-us'):
    print(f'\n| case | {metric}: gregor main | gregor new | franz | new/main | new/franz |')
    print('|---|---|---|---|---|---|')
    for case in sorted(rows):
        r = rows[case]
        a, b, c = r.get(('gregor-main', metric), []), r.get(('gregor-new', metric), []), r.get(('franz', metric), [])
        if not a:
            continue
        f = lambda xs: f"{md(xs):,.0f} [{min(xs):,.0f}-{max(xs):,.0f}] n={len(xs)}" if xs else '-'
        print(f"| {case} | {f(a)} | {f(b)} | {f(c)} | {md(b)/md(a):.2f} | {md(b)/md(c) if c else float('nan'):.2f} |")
