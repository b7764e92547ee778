#!/usr/bin/env python3
"""Run 19's tables: medians [min-max] of gregor's and franz-go's cases from
run.sh output (produce.txt, consume.txt, defaults/scale.txt), the ratio of
the medians, beside run 18's medians where the case exists there."""
import collections, re, statistics as st, sys, os

def load(path):
    d = collections.defaultdict(lambda: collections.defaultdict(list))
    if not os.path.exists(path):
        return d
    for line in open(path):
        if not line.startswith('Benchmark'):
            continue
        p = line.split()
        name = re.sub(r'-\d+$', '', p[0])
        for i in range(2, len(p)):
            try:
                d[name][p[i]].append(float(p[i - 1]))
            except ValueError:
                pass
    return d

def med(d, name, unit):
    v = d.get(name, {}).get(unit, [])
    return (st.median(v), min(v), max(v), len(v)) if v else None

def fmt(m, scale=1, suffix=''):
    if not m:
        return '–'
    return f"{m[0]/scale:,.0f}{suffix} [{m[1]/scale:,.0f}–{m[2]/scale:,.0f}]"

def ratio(a, b):
    return f"{a[0]/b[0]:.2f}" if a and b else '–'

# Usage: table.py [dir [baseline]]: the tables of dir (default this run's)
# beside the ratios of the run directory baseline (default run18).
here = os.path.dirname(os.path.abspath(__file__))
results = os.path.dirname(here)
run = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else here
base = sys.argv[2] if len(sys.argv) > 2 else 'run18'
r18 = {s: load(os.path.join(results, base, s + '.txt')) for s in ('produce', 'consume')}

def table(suite, peer_of):
    d = load(os.path.join(run, suite + '.txt'))
    if not d:
        return
    print(f"\n#### {suite} (tuned), n = runs per case\n")
    print(f"| case | n | gregor cpu-ns/rec | franz-go | ratio | {base} ratio | gregor records/s | franz-go | ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in sorted(d):
        if '/client=gregor' not in name:
            continue
        peer = peer_of(name)
        g, f = med(d, name, 'cpu-ns/rec'), med(d, peer, 'cpu-ns/rec')
        gr, fr = med(d, name, 'records/s'), med(d, peer, 'records/s')
        o18 = ratio(med(r18[suite], name, 'cpu-ns/rec'), med(r18[suite], peer, 'cpu-ns/rec'))
        case = name.replace('Benchmark' + suite.capitalize() + '/', '')
        print(f"| {case} | {g[3] if g else 0} | {fmt(g)} | {fmt(f)} | {ratio(g, f)} | {o18} | {fmt(gr, 1e3, 'k')} | {fmt(fr, 1e3, 'k')} | {ratio(gr, fr)} |")

def produce_peer(n):
    return re.sub(r'client=gregor(-borrow)?', 'client=franz', n)

def consume_peer(n):
    return re.sub(r'client=gregor(-norecycle)?', 'client=franz', n)

if __name__ == '__main__':
    table('produce', produce_peer)
    table('consume', consume_peer)

d = load(os.path.join(run, 'defaults', 'scale.txt')) if __name__ == '__main__' else None
if d:
    print("\n#### defaults (scale suite), n = runs per case\n")
    print("| case | n | gregor cpu-ns/rec | franz-go | ratio | gregor records/s | franz-go | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for name in sorted(d):
        if '/client=gregor/' not in name:
            continue
        peer = name.replace('client=gregor/', 'client=franz/')
        g, f = med(d, name, 'cpu-ns/rec'), med(d, peer, 'cpu-ns/rec')
        gr, fr = med(d, name, 'records/s'), med(d, peer, 'records/s')
        print(f"| {name.replace('Benchmark', '')} | {g[3] if g else 0} | {fmt(g)} | {fmt(f)} | {ratio(g, f)} | {fmt(gr, 1e3, 'k')} | {fmt(fr, 1e3, 'k')} | {ratio(gr, fr)} |")
