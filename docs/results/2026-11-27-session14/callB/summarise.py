import json, re, collections, glob, statistics as st
NAME = re.compile(r"^(Thomas|Hines)/Device/FullInterleaved/SimdTiles/(?:(?P<tree>[^/]+)/n:(?P<n>\d+)|m:(?P<m>\d+))/total:(?P<t>\d+)")
res = collections.defaultdict(dict)
for f in sorted(glob.glob('map/*.json')):
    fam, isa, p = f[4:-5].split('_')
    for b in json.load(open(f))['benchmarks']:
        m = NAME.match(b['name'])
        if m and not b.get('error_occurred'):
            res[(fam, isa, m.group('tree') or 'm', int(m.group('n') or m.group('m')))][p] = b['floor_frac']
def chosen(n, r): return r['32'] if n*32*8 <= 4<<20 else r['0']
groups = [('Hines real cells', lambda k: k[0]=='hines' and k[2].startswith('real')),
          ('Hines 16-200', lambda k: k[0]=='hines' and not k[2].startswith('real') and k[3]<=200),
          ('Hines 305-998 classes', lambda k: k[0]=='hines' and not k[2].startswith('real') and 300<=k[3]<1000),
          ('Hines 1000-30000 synth', lambda k: k[0]=='hines' and not k[2].startswith('real') and k[3]>=1000),
          ('Thomas m<=257', lambda k: k[0]=='thomas' and k[3]<=257),
          ('Thomas m>=1000', lambda k: k[0]=='thomas' and k[3]>=1000)]
for isa in ('sse2','v4'):
    for name, g in groups:
        ks = [k for k in res if k[1]==isa and g(k)]
        w = [res[k]['0'] for k in ks]; c = [chosen(k[3], res[k]) for k in ks]; ratio=[chosen(k[3],res[k])/res[k]['0'] for k in ks]
        print(f"{isa:4s} {name:24s} n={len(ks):2d} W {min(w):.2f}-{max(w):.2f}  new {min(c):.2f}-{max(c):.2f}  new/W {min(ratio):.2f}-{max(ratio):.2f} (median {st.median(ratio):.2f}) behind at {sum(r<0.95 for r in ratio)}")
