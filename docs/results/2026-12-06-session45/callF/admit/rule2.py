# Which K each candidate rule picks against the best Split@K of call F's map (H100):
#   rule2.py [f1,f2,...] [-t: every point] [-v: the points under 0.85 of the best]
# f: the fraction of the threads the GPU holds that the rule wants; eff=1 counts a lane as
# busy only as far as the plan keeps it (nodes / path); thr: the shortening a doubling needs.
import json,lzma,os,re,collections,sys
here=os.path.dirname(os.path.abspath(__file__))
steps={}
for l in open(os.path.join(here,'steps.txt')):
    w=l.split(); steps[(w[0],int(w[1]))]=dict(zip([1,2,4,8,16,32],map(int,w[2:])))
d=json.load(lzma.open(os.path.join(here,'../map/map_split.json.xz')))
pts=collections.defaultdict(dict)
for b in d['benchmarks']:
    m=re.match(r'Hines/Device/FullInterleaved/([^/]+)/([^/]+)/n:(\d+)/total:(\d+)',b['name'])
    if not m: continue
    s,tree,n,t=m.groups()
    pts[(tree,int(n),int(t))][s]=(b['nodes_per_s']/1e9,b.get('lanes'),b['systems'])
C=132*2048
FS=[float(x) for x in sys.argv[1].split(",")] if len(sys.argv)>1 and sys.argv[1][0]!="-" else [1,0.5,0.25,0.125,0.0625]
def rule(st,n,sy,f,eff,thr=0.9,most=16):
    if n<64: return 1
    W=C*f
    def time(K):
        s=st[K]; use=min(K,n/s) if eff else K
        return s*max(1.0,W/(sy*use))
    best=1;bt=time(1);K=2
    while K<=most and sy*K/2<W:
        t=time(K)
        if t>thr*bt: break
        best=K;bt=t;K*=2
    return best
if '-t' in sys.argv:
    for k,p in sorted(pts.items(),key=lambda x:(x[0][1],x[0][0],x[0][2])):
        if k[1]<64: continue
        meas={K:p['Split@%d'%K][0] for K in (1,2,4,8,16,32)}
        best=max(meas,key=meas.get)
        print('%-14s %5d %d sys%7d Auto %5.1f rule K%-2d %5.1f |'%(k[0][:14],k[1],k[2],p['Split'][2],p['Auto'][0],p['Split'][1],p['Split'][0]),' '.join('%5.1f'%meas[K] for K in (1,2,4,8,16,32)),'best K%d'%best)
for f in FS:
  for eff in [0,1]:
   for thr in [0.9,0.8]:
    tot=0;cnt=0;worst=[];au=0
    for k,p in sorted(pts.items()):
        tree,n,t=k; sy=p['Split'][2]
        if n<64: continue
        meas={K:p['Split@%d'%K][0] for K in (1,2,4,8,16,32)}
        K=rule(steps[(tree,n)],n,sy,f,eff,thr)
        best=max(meas[K] for K in (1,2,4,8,16))
        r=meas[K]/best; tot+=r; cnt+=1
        # only where split matters: best split beats auto
        if best>p['Auto'][0]*1.05: au+= r
        if r<0.85: worst.append('%s/%d/%d:K%d %.2f'%(tree[:10],n,t,K,r))
    print('f=%.4f eff=%d thr=%.1f mean %.3f over %d, <0.85: %d'%(f,eff,thr,tot/cnt,cnt,len(worst)), ' '.join(worst[:10]) if '-v' in sys.argv else '')
