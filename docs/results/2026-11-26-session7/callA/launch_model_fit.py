# The on-chip launch model (src/simulation/on_chip_launch_plan.cpp) restated in Python and its
# constants fitted by a grid search to the H100 rates of every forced shape (docs/SCALING.md,
# "Forced launch shapes"; groups below). critical_paths.txt: each shared morphology's nodes and
# its lane plan's critical path at 32..1024 lanes (critical_paths.cpp over examples/sim/real_mixed.json).
# Run: python3 launch_model_fit.py (prints the current and the fitted model's choices).
import math, itertools
nodes = {}; path = {}
for f in ['critical_paths.txt']:
    for line in open(f):
        p = line.split()
        if len(p) < 8 or not p[0].endswith('.swc'): continue
        nodes[p[0].split('.')[0]] = int(p[1]); path[p[0].split('.')[0]] = dict(zip([32,64,128,256,512,1024], map(int, p[2:])))
nodes['1012_10um']=2245; path['1012_10um']=dict(zip([32,64,128,256,512,1024],[205,201,201,201,201,201]))
nodes['moto_10um']=8269; path['moto_10um']=dict(zip([32,64,128,256,512,1024],[407,328,324,324,324,324]))
nodes['p3']=480; path['p3']={l:79 for l in [32,64,128,256,512,1024]}
hh = {k: nodes[k] for k in nodes}; hh['1012_10um']=1; hh['moto_10um']=1; hh['p3']=1
SM=132; SHARED=233472; S0MAX=49152
def rate(kind, lanes, cells, count, P):
    first = cells[0]; n = nodes[first]
    bytes_ = 16*n
    if kind=='warp': blocks = 28
    else: blocks = min(32, 1024//lanes)
    if kind!='mem': blocks = min(blocks, math.floor(SHARED/(bytes_+1024)))
    if kind=='warp' and bytes_ > S0MAX: return 0
    per_sm = math.ceil(count/SM); res = min(blocks, per_sm)
    if res < 1: return 0
    w = sum(hh[c]*P['Wh'] + (nodes[c]-hh[c])*P['Wp'] for c in cells)/len(cells)
    per_lane = math.ceil(n/lanes)*(w/n)
    pth = path[first][lanes]
    warps = max(1, lanes//32)
    barrier = 0 if kind=='warp' else 2*pth*P['bar']*warps*32   # issue slots the team's barriers cost per step
    issue = res*(w + barrier)/128
    lat = per_lane*4 + 2*pth*30
    if kind=='mem': issue*=1.3; lat*=2.2
    r = res/max(issue, lat)
    if kind=='warp': r *= P['warp']
    return r
K={'w':'warp','t':'team','m':'mem'}
groups = {
 'big': (['v_e_moto1','v_e_purk2','10-2012-02-09-001'], 4999, {('t',64):5.82,('t',128):7.20,('t',256):6.71,('t',512):4.62}),
 'mid': (['AKO60sdax2lay','HSN-fluoro02','l22'], 5000, {('t',32):6.98,('t',64):7.92,('t',128):7.47,('t',256):4.83,('t',512):2.70}),
 'warpg': (['cnic_004','CT12T2'], 3334, {('w',32):7.80,('t',32):7.66,('t',64):6.18,('t',128):5.38,('t',256):3.59}),
 'small': (['mp_ma_40984_gc2','1220882a','951118a','96ML'], 6667, {('w',32):7.945,('t',32):7.36,('t',64):5.47,('t',128):4.32}),
 'moto': (['v_e_moto1'], 1666, {('t',128):6.505,('t',256):5.95}),
 'purk': (['v_e_purk2'], 1666, {('t',128):7.65,('t',256):5.375}),
 '1012': (['10-2012-02-09-001'], 1666, {('t',128):7.41,('t',256):5.44}),
 '1012_10um_2000': (['1012_10um'], 2000, {('w',32):10.2,('t',32):7.08,('t',64):9.85,('t',128):10.6,('t',256):8.38,('t',512):4.43,('m',128):5.29}),
 '1012_10um_200': (['1012_10um'], 200, {('w',32):3.33,('t',32):2.20,('t',64):2.95,('t',128):3.18,('t',256):3.28,('t',512):3.40}),
 'moto_10um_2000': (['moto_10um'], 2000, {('m',64):5.75,('m',128):5.7}),
 'moto_10um_200': (['moto_10um'], 200, {('t',1024):3.3,('m',512):3.42,('t',128):2.9}),
 'mixed200': (['v_e_moto1','v_e_purk2','10-2012-02-09-001','AKO60sdax2lay','HSN-fluoro02','l22','cnic_004','CT12T2','mp_ma_40984_gc2','1220882a','951118a','96ML'], 200, {('t',512):1.22,('t',128):0.94}),
 'p3_1000': (['p3'], 1000, {('t',128):8.6,('w',32):7.2}),
}
def evaluate(P, show=False):
    err=0; loss=0; worst=1
    for g,(cells,count,meas) in groups.items():
        pred = {k: rate(K[k[0]], k[1], cells, count, P) for k in meas}
        mb = max(meas, key=meas.get)
        order = sorted(pred, key=lambda k: (k[1], 0 if k[0]=='w' else 1))
        top = max(pred.values()); choice = next(k for k in order if pred[k] >= 0.97*top)
        l = meas[choice]/meas[mb]; worst=min(worst,l)
        err += sum((math.log(max(pred[k],1e-12)/pred[mb]) - math.log(meas[k]/meas[mb]))**2 for k in meas)
        loss += math.log(l)
        if show: print(f"{g:16s} best {mb} {meas[mb]:5.2f} plan {choice} {meas[choice]:5.2f}", {f"{k[0]}{k[1]}":round(pred[k]/pred[mb],2) for k in meas})
    return loss, err, worst
base={'Wh':200,'Wp':30,'bar':0,'warp':1}
print('current', evaluate(base, True))
res=[]
for bar,warp,Wh in itertools.product([0,0.1,0.2,0.3,0.5,0.75,1,1.5,2,3],[1,1.03,1.05,1.08,1.1],[150,200,300]):
    P=dict(base,bar=bar,warp=warp,Wh=Wh)
    l,e,w=evaluate(P); res.append((-l,e,P))
res.sort(key=lambda x:(round(x[0],4),x[1]))
for r in res[:8]: print(r)
print(evaluate(res[0][2], True))
src=open(__file__).read()
def plan(cell_list, P):
    cl = sorted(cell_list, key=lambda c: -nodes[c])
    nc=len(cl); out=[]; s=0
    while s < nc:
        e=s+1
        while e<nc and (2*nodes[cl[e]]>nodes[cl[s]] or e-s<SM or nc-e<SM): e+=1
        cells=cl[s:e]; n=nodes[cells[0]]; b=16*n
        cands=[]
        if b<=S0MAX: cands.append(('w',32))
        for kind in ['t','m']:
            if kind=='t' and b>S0MAX: continue
            most=min(1024, max(32,(n+31)//32*32))
            l=32
            while l<=most: cands.append((kind,l)); l*=2
            few = all((28 if k=='w' else min(32,1024//ll, math.floor(SHARED/(b+1024)) if k!='m' else 99))<=2 for k,ll in cands)
            if cands and not few: break
        pr={k: rate(K[k[0]],k[1],cells,len(cells),P) for k in cands}
        top=max(pr.values()); ch=next(k for k in cands if pr[k]>=0.97*top)
        out.append((len(cells), n, ch))
        s=e
    return out
morphs=[m for m in nodes if m not in ('1012_10um','moto_10um','p3')]
best=res[0][2]
for N in [20000,2000,200]:
    cl=[morphs[i%12] for i in range(N)]
    print('mixed',N,'current',[f"{c[2][0]}{c[2][1]}" for c in plan(cl,base)],'new',[f"{c[2][0]}{c[2][1]}" for c in plan(cl,best)])
for hv,label in [(1,'p3'),(480,'ringtest')]:
    hh['p3']=hv
    for N in [100000,65536,10000,1000,200]:
        print(label,N,'current',plan(['p3']*N,base)[0][2],'new',plan(['p3']*N,best)[0][2])
for nm in ['1012_10um','moto_10um']:
    for N in [20000,2000,200]:
        print(nm,N,'current',plan([nm]*N,base)[0][2],'new',plan([nm]*N,best)[0][2])
