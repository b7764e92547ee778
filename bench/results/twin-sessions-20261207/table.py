import re,glob,statistics as st,collections
d=collections.defaultdict(list)
for f in glob.glob("*-[0-9].txt"):
    v=f.split('-')[0]
    for line in open(f):
        if not line.startswith('BenchmarkDelay/'): continue
        parts=line.split()
        name=parts[0].replace('BenchmarkDelay/','').rsplit('-',1)[0]
        m={}
        for i in range(2,len(parts)-1):
            try: m[parts[i+1]]=float(parts[i])
            except: pass
        cl='franz' if 'client=franz' in name else v
        key=name.replace('/client=gregor','').replace('/client=franz','')
        d[(key,cl)].append(m)
keys=sorted(set(k for k,_ in d), key=lambda s:(int(re.search(r'delay=(\d+)',s).group(1)) if 'delay=0s' not in s else 0, int(re.search(r'parts=(\d+)',s).group(1))))
def med(ms,k): 
    xs=[m[k] for m in ms if k in m]; 
    return (st.median(xs),min(xs),max(xs),len(xs)) if xs else None
print("| cell | base rec/s | new rec/s | franz rec/s | new/base | new/franz | base cpu | new cpu | franz cpu | fetches base/new/franz | early/op |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for k in keys:
    b,n,f=d[(k,'base')],d[(k,'new')],d[(k,'franz')]
    rb,rn,rf=med(b,'records/s'),med(n,'records/s'),med(f,'records/s')
    cb,cn,cf=med(b,'cpu-ns/rec'),med(n,'cpu-ns/rec'),med(f,'cpu-ns/rec')
    fmt=lambda x:f"{x[0]/1e3:,.0f}k [{x[1]/1e3:,.0f}–{x[2]/1e3:,.0f}]"
    print(f"| {k} | {fmt(rb)} | {fmt(rn)} | {fmt(rf)} n={rf[3]} | {rn[0]/rb[0]:.2f} | {rn[0]/rf[0]:.2f} | {cb[0]:.0f} | {cn[0]:.0f} | {cf[0]:.0f} | {med(b,'fetches/op')[0]:.1f}/{med(n,'fetches/op')[0]:.1f}/{med(f,'fetches/op')[0]:.1f} | {med(n,'early/op')[0]:.1f} |")
