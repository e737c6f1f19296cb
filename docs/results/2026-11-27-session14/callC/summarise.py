import json, re, collections, glob, statistics as st
NAME = re.compile(r"^(Thomas|Hines)/Device/FullInterleaved/(\w+)/(?:(?P<tree>[^/]+)/n:(?P<n>\d+)|m:(?P<m>\d+))/total:(?P<t>\d+)")
res = collections.defaultdict(dict); bw={}
for f in sorted(glob.glob('map/*.json')):
    fam, isa = f[4:-5].split('_')
    d=json.load(open(f)); bw[(fam,isa)]=d['context'].get('copy_bandwidth_GBps')
    for b in d['benchmarks']:
        m = NAME.match(b['name'])
        if m and not b.get('error_occurred'):
            res[(fam, isa, m.group('tree') or 'm', int(m.group('n') or m.group('m')))][m.group(2)] = b['floor_frac']
        elif m: print("ERR", b['name'])
print(bw)
old = {}
for f in glob.glob('../callB/map/*_0.json'):
    fam, isa, p = f.split('/')[-1][:-5].split('_')
    for b in json.load(open(f))['benchmarks']:
        m = NAME.match(b['name'])
        if m and not b.get('error_occurred'): old[(fam, isa, m.group('tree') or 'm', int(m.group('n') or m.group('m')))] = b['floor_frac']
groups = [('Hines real cells', lambda k: k[0]=='hines' and k[2].startswith('real')),
          ('Hines 16-200', lambda k: k[0]=='hines' and not k[2].startswith('real') and k[3]<=200),
          ('Hines 305-998 classes', lambda k: k[0]=='hines' and not k[2].startswith('real') and 300<=k[3]<1000),
          ('Hines 1000-30000 synth', lambda k: k[0]=='hines' and not k[2].startswith('real') and k[3]>=1000),
          ('Thomas m<=257', lambda k: k[0]=='thomas' and k[3]<=257),
          ('Thomas m>=1000', lambda k: k[0]=='thomas' and k[3]>=1000)]
for isa in ('sse2','v4'):
    for name, g in groups:
        ks = sorted(k for k in res if k[1]==isa and g(k))
        t=[res[k]['SimdTiles'] for k in ks]; a=[res[k]['Auto'] for k in ks]; r=[res[k]['SimdTiles']/old[k] for k in ks]
        print(f"{isa:4s} {name:24s} n={len(ks):2d} tiles {min(t):.2f}-{max(t):.2f} auto {min(a):.2f}-{max(a):.2f}  vs callB W: {min(r):.2f}-{max(r):.2f} (med {st.median(r):.2f}) behind(<0.95) {sum(x<0.95 for x in r)}")
for k in sorted(res):
    if k[0]=='thomas' or k[3]>=1000: print(k, {x: round(y,3) for x,y in res[k].items()}, 'W', round(old[k],3))
