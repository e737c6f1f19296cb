import json, re, collections, glob
NAME = re.compile(r"^(Thomas|Hines)/Device/FullInterleaved/SimdTiles/(?:(?P<tree>[^/]+)/n:(?P<n>\d+)|m:(?P<m>\d+))/total:(?P<t>\d+)")
res = collections.defaultdict(dict); bw = {}
for f in sorted(glob.glob('map/*.json')):
    fam, isa, p = f[4:-5].split('_')
    d = json.load(open(f)); bw[(fam,isa,p)] = d['context'].get('copy_bandwidth_GBps')
    for b in d['benchmarks']:
        m = NAME.match(b['name'])
        if not m: continue
        if b.get('error_occurred'): print('ERR', f, b['name'], b.get('error_message')); continue
        key = (fam, isa, m.group('tree') or 'm', int(m.group('n') or m.group('m')))
        res[key][p] = b.get('floor_frac', 0)
print(bw)
for key in sorted(res):
    r = res[key]
    print(f"{key[0]:6s} {key[1]:4s} {key[2][:22]:22s} {key[3]:7d}  W={r.get('0',0):.3f}  32={r.get('32',0):.3f}  64={r.get('64',0):.3f}  64/W={r.get('64',0)/max(r.get('0',1e-9),1e-9):.2f}")
