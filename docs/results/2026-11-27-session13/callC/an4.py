import json, collections, re, sys
base = sys.argv[1]
NAME = re.compile(r"^(Thomas|Hines)/Device/(Flat|FullInterleaved)/(\w+)/(?:(?P<tree>[^/]+)/n:(?P<n>\d+)|m:(?P<m>\d+))/total:(?P<t>\d+)")
out=[]
for fam in ('thomas','hines'):
  for v in ('default','v4'):
    d = json.load(open(f'{base}/map/{fam}_flat_{v}.json'))
    cells = collections.defaultdict(dict)
    for b in d['benchmarks']:
        m = NAME.match(b['name'])
        if not m or b.get('error_occurred'): continue
        key = (m.group(2), int(m.group('t')), int(m.group('n') or m.group('m')), m.group('tree') or '')
        cells[key][m.group(3)] = b.get('floor_frac', 0)
    out.append(f"== {fam} {v} copy GB/s {d['context'].get('copy_bandwidth_GBps')}")
    for k in sorted(cells):
        c = cells[k]
        bo = max(c.get('PerSystem',0), c.get('PerSystemOnChip',0))
        out.append(f"  {k[0][:4]} t{k[1]} {k[2]:6d} {k[3][:18]:18s} auto={c.get('Auto',0):.3f} tiles={c.get('SimdTiles',0):.3f} per={c.get('PerSystem',0):.3f} onchip={c.get('PerSystemOnChip',0):.3f} tiles/best_other={(c.get('SimdTiles',0)/bo if bo else 0):.2f}")
print('\n'.join(out))
