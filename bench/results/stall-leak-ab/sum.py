#!/usr/bin/env python3
"""Medians [min-max] of records/s and cpu-ns/rec per (file label, benchmark name)."""
import re, sys, statistics, collections
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for path in sys.argv[1:]:
    label = path.rsplit('/', 1)[-1].rsplit('.', 1)[0]
    for line in open(path):
        if not line.startswith('Benchmark'):
            continue
        f = line.split()
        name = re.sub(r'-\d+$', '', f[0])
        vals = {}
        for i in range(2, len(f) - 1):
            try:
                v = float(f[i])
            except ValueError:
                continue
            vals[f[i + 1]] = v
        for k in ('records/s', 'cpu-ns/rec', 'sys-ns/rec', 'peak-RSS-MiB', 'B/rec'):
            if k in vals:
                rows[(name, label)][k].append(vals[k])
def fmt(xs, k):
    if not xs: return '-'
    m = statistics.median(xs)
    if k == 'records/s':
        return f"{m/1e3:,.0f}k [{min(xs)/1e3:,.0f}-{max(xs)/1e3:,.0f}]"
    return f"{m:,.0f} [{min(xs):,.0f}-{max(xs):,.0f}]"
keys = ('records/s', 'cpu-ns/rec', 'sys-ns/rec', 'peak-RSS-MiB', 'B/rec')
print('| case | label | n | ' + ' | '.join(keys) + ' |')
print('|' + '---|' * (3 + len(keys)))
for (name, label) in sorted(rows):
    r = rows[(name, label)]
    print(f"| {name} | {label} | {len(r['records/s'])} | " + ' | '.join(fmt(r[k], k) for k in keys) + ' |')
