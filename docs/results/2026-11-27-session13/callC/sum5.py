import re, sys
rows=[l for l in open(sys.argv[1])]
h=None; data={}
for l in rows:
    if l.startswith('=='): h=tuple(l.split()[1:3]); continue
    f=l.split()
    if f[0]!='Flat': continue
    t=int(f[1][1:]); size=int(f[2]); tree=f[3] if not f[3].startswith('auto=') else ''
    kv=dict(x.split('=') for x in f if '=' in x)
    data.setdefault(h,[]).append((t,size,tree,{k:float(v) for k,v in kv.items()}))
for (fam,v),pts in sorted(data.items()):
    groups = [('16-200',0,300),('305-998',300,1000),('1000-30000',1000,10**6)] if fam=='hines' else [('2-257',0,300),('300-100000',300,10**6)]
    for name,lo,hi in groups:
        sel=[p for p in pts if p[0]==24 and lo<=p[1]<hi]
        tl=[p[3]['tiles'] for p in sel]; bo=[max(p[3]['per'],p[3]['onchip']) for p in sel]; r=sorted(a/b for a,b in zip(tl,bo))
        print(f"{fam} {v} t24 {name}: tiles {min(tl):.2f}-{max(tl):.2f} best-other {min(bo):.2f}-{max(bo):.2f} ratio {r[0]:.2f}-{r[-1]:.2f} median {r[len(r)//2]:.2f} n={len(sel)}")
