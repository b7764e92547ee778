#!/usr/bin/env python3
"""Medians [min-max] per (case, client, file) of ScaleProduce metrics."""
import re, sys, statistics, collections
rows = collections.defaultdict(list)
for path in sys.argv[1:]:
    label = path.rsplit('/', 1)[-1].rsplit('.', 1)[0].split('-', 1)[1]
    for line in open(path):
        if not line.startswith('Benchmark'):
            continue
        f = line.split()
        name = re.sub(r'-\d+$', '', f[0]).replace('BenchmarkScaleProduce/', '')
        for i in range(2, len(f) - 1):
            try:
                rows[(name, label, f[i + 1])].append(float(f[i]))
            except ValueError:
                pass
names = sorted({(n, l) for n, l, _ in rows})
keys = ('records/s', 'cpu-ns/rec', 'allocs/rec', 'heap-KiB/part', 'peak-RSS-MiB')
print('| case | binary | n | ' + ' | '.join(keys) + ' |')
print('|' + '---|' * (3 + len(keys)))
for n, l in names:
    cells = []
    for k in keys:
        xs = rows.get((n, l, k), [])
        if not xs:
            cells.append('-'); continue
        m = statistics.median(xs)
        fmt = (lambda v: f'{v:,.3f}') if k == 'allocs/rec' else (lambda v: f'{v:,.0f}')
        cells.append(f'{fmt(m)} [{fmt(min(xs))}-{fmt(max(xs))}]')
    print(f'| {n} | {l} | {len(rows[(n, l, "cpu-ns/rec")])} | ' + ' | '.join(cells) + ' |')
