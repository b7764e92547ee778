#!/usr/bin/env python3
"""summarize.py FILE...: median [min-max] per client and partition count of
the scale suite's metrics (benchmark lines of the raw outputs)."""
import re, sys, statistics
from collections import defaultdict
units = ["records/s", "cpu-ns/rec", "recs/req", "allocs/rec", "B/rec", "peak-RSS-MiB", "heap-MiB"]
data = defaultdict(lambda: defaultdict(list))
for f in sys.argv[1:]:
    for line in open(f):
        if not line.startswith("BenchmarkScale"):
            continue
        fs = line.split()
        m = re.match(r"Benchmark(Scale\w+)/client=([^/]+)/parts=(\d+)", fs[0])
        if not m:
            continue
        key = (m.group(1), int(m.group(3)), m.group(2))
        for i in range(len(fs) - 1):
            if fs[i + 1] in units:
                data[key][fs[i + 1]].append(float(fs[i]))
def fmt(v):
    return f"{v/1000:.1f}k" if v >= 10000 else (f"{v:.0f}" if v >= 100 else f"{v:.3g}")
print("| suite | parts | client | n | " + " | ".join(units) + " |")
print("|" + "---|" * (4 + len(units)))
for key in sorted(data):
    d = data[key]
    cells = []
    for u in units:
        xs = d.get(u, [])
        cells.append(f"{fmt(statistics.median(xs))} [{fmt(min(xs))}–{fmt(max(xs))}]" if xs else "")
    n = len(d.get("records/s", []))
    print(f"| {key[0]} | {key[1]} | {key[2]} | {n} | " + " | ".join(cells) + " |")
