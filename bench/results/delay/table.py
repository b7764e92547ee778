import re,sys,statistics as st
vals={}
for line in open(sys.argv[1]):
    if not line.startswith('BenchmarkDelay/'): continue
    f=line.split()
    name=re.sub(r'-\d+$','',f[0])[len('BenchmarkDelay/'):]
    parts=dict(p.split('=',1) for p in name.split('/'))
    key=(parts['delay'],parts['op'],int(parts['parts']),parts['client'])
    for i in range(2,len(f)-1,2):
        try: v=float(f[i])
        except: continue
        vals.setdefault(key,{}).setdefault(f[i+1],[]).append(v)
def med(k,u):
    v=vals.get(k,{}).get(u)
    if not v: return None
    return st.median(v),min(v),max(v),len(v)
def fr(x):
    if x>=1e6: return '%.2fM'%(x/1e6)
    if x>=1e3: return '%.0fk'%(x/1e3)
    return '%.0f'%x
order=['0s','1ms','10ms','40ms']
print('| one-way delay (RTT measured) | op | partitions | gregor records/s | franz-go records/s | ratio (medians) | gregor bound | of bound | gregor / franz CPU ns/rec | Fetches/op gregor (bound) / franz |')
print('|---|---|---|---|---|---|---|---|---|---|')
for d in order:
  for op in ['produce','consume']:
    for p in [1,16,256]:
        g=med((d,op,p,'gregor'),'records/s'); z=med((d,op,p,'franz'),'records/s')
        if not g or not z: continue
        rtt=med((d,op,p,'gregor'),'rtt-ms')
        b=med((d,op,p,'gregor'),'bound-rec/s'); ob=med((d,op,p,'gregor'),'of-bound')
        gc=med((d,op,p,'gregor'),'cpu-ns/rec'); zc=med((d,op,p,'franz'),'cpu-ns/rec')
        fe=''
        if op=='consume':
            gf=med((d,op,p,'gregor'),'fetches/op'); bf=med((d,op,p,'gregor'),'bound-fetches'); zf=med((d,op,p,'franz'),'fetches/op')
            fe='%.0f (%.0f) / %.0f'%(gf[0],bf[0],zf[0])
        else:
            rr=med((d,op,p,'gregor'),'recs/req'); pi=med((d,op,p,'gregor'),'peak-inflight')
            fe='%.0f recs/req, peak in flight %.0f'%(rr[0],pi[0])
        dl='%s (%.1f ms)'%('0 loopback' if d=='0s' else d, rtt[0])
        print('| %s | %s | %d | %s [%s–%s] n=%d | %s [%s–%s] n=%d | %.2f | %s | %.0f %% [%.0f–%.0f] | %.0f / %.0f | %s |'%(dl,op,p,fr(g[0]),fr(g[1]),fr(g[2]),g[3],fr(z[0]),fr(z[1]),fr(z[2]),z[3],g[0]/z[0],fr(b[0]),ob[0]*100,ob[1]*100,ob[2]*100,gc[0],zc[0],fe))
n=min(len(v['records/s']) for v in vals.values())
print('\nn per cell: %d'%n)
