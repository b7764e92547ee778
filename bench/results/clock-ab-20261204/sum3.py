#!/usr/bin/env python3
"""Medians [min-max] of cpu-ns/rec, p50-us, p99-us per case, gregor beside franz-go."""
import re, sys, statistics, collections
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for path in sys.argv[1:]:
    for line in open(path):
        if not line.startswith('Benchmark'):
            continue
        f = line.split()
        name = re.sub(r'-\d+$', '', f[0])
        cl = re.search(r'client=([\w-]+)', name).group(1)
        case = name.replace('client=' + cl + '/', '')
        for i in range(2, len(f) - 1):
            try:
                rows[case][(cl, f[i + 1])].append(float(f[i]))
            except ValueError:
                pass
md = statistics.median
for metric in ('cpu-ns/rec', 'p50-us', 'p99-us'):
    print(f'\n| case | {metric}: gregor | franz-go | ratio |')
    print('|---|---|---|---|')
    for case in sorted(rows):
        a, b = rows[case].get(('gregor', metric)), rows[case].get(('franz', metric))
        if a and b:
            print(f"| {case} | {md(a):,.0f} [{min(a):,.0f}-{max(a):,.0f}] | {md(b):,.0f} [{min(b):,.0f}-{max(b):,.0f}] | {md(a)/md(b):.2f} |")
