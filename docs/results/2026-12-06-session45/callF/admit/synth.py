# Call F's map with Split taken at the K mono_split_lanes picks (Split@K of the same run),
# for solver_map.py --admit Split:
#   synth.py ../map/map_split.json.xz map_split_rule.json   (H100: 132 SMs x 2,048 threads)
import json,lzma,os,re,sys
here=os.path.dirname(os.path.abspath(__file__))
steps={}
for l in open(os.path.join(here,'steps.txt')):
    w=l.split(); steps[(w[0],int(w[1]))]=dict(zip([1,2,4,8,16,32],map(int,w[2:])))
C=132*2048; W=C/8.0
def rule(st,n,sy):
    if n<64: return 1
    def time(K): return st[K]*max(1.0,W/(sy*K))
    best=1;bt=time(1);K=2
    while K<=16 and (sy*K)//2<W:
        t=time(K)
        if t>0.9*bt: break
        best=K;bt=t;K*=2
    return best
d=json.load(lzma.open(sys.argv[1]) if sys.argv[1].endswith('.xz') else open(sys.argv[1]))
by={b['name']:b for b in d['benchmarks']}
out=[];changed=0
for b in d['benchmarks']:
    m=re.match(r'Hines/Device/FullInterleaved/Split/([^/]+)/n:(\d+)/(.*)',b['name'])
    if m:
        tree,n,rest=m.group(1),int(m.group(2)),m.group(3)
        K=rule(steps[(tree,n)],n,int(b['systems']))
        src=by['Hines/Device/FullInterleaved/Split@%d/%s/n:%d/%s'%(K,tree,n,rest)]
        nb=dict(src); nb['name']=b['name']; nb['run_name']=b.get('run_name',b['name']); nb['lanes']=K; nb['label']=b.get('label','Split')
        changed+= K!=b.get('lanes'); b=nb
    out.append(b)
d['benchmarks']=out
json.dump(d,open(sys.argv[2],'w'),indent=1)
print('Split points re-taken:',sum(1 for b in out if '/Split/' in b['name']),'K changed at',changed)
