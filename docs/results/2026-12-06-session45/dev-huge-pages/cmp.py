# Fractions of the copy floor of each run in an A-B-B-A run: cmp.py DIR A1,B1,B2,A2
import json,lzma,sys,collections,os
def load(p):
    return json.load(lzma.open(p+'.xz') if os.path.exists(p+'.xz') else open(p))
d=sys.argv[1]
runs={r:{b['name']:b for b in load(os.path.join(d,r+'.json'))['benchmarks']} for r in tuple(sys.argv[2].split(','))}
names=tuple(sys.argv[2].split(','))
print('%-70s %6s %6s %6s %6s  best B / best A (fraction of the floor of each run)'%('point',*names))
import math; rs=[]
for n in runs[tuple(sys.argv[2].split(','))[0]]:
    v=[runs[r][n]['floor_frac'] if n in runs[r] else float('nan') for r in tuple(sys.argv[2].split(','))]
    ratio=max(v[1],v[2])/max(v[0],v[3]); rs.append(ratio)
    print('%-70s %6.2f %6.2f %6.2f %6.2f  %.2f'%(n.replace('/iterations:3/manual_time','')[:70],*v,ratio))
print('geo mean best-huge/best-none %.2f'%math.exp(sum(map(math.log,rs))/len(rs)))
