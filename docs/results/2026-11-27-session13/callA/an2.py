import json, sys, collections, re
NAME = re.compile(r"^(Thomas|Hines)/Device/(Flat|FullInterleaved)/(\w+)/(?:(?P<tree>[^/]+)/n:(?P<n>\d+)|m:(?P<m>\d+))/total:(?P<t>\d+)")
for fam in ('thomas','hines'):
  for v in ('default','v4'):
    d = json.load(open(f'map/{fam}_fi_{v}.json'))
    cells = collections.defaultdict(dict)
    for b in d['benchmarks']:
        m = NAME.match(b['name'])
        if not m or b.get('error_occurred'): continue
        key = (int(m.group('t')), int(m.group('n') or m.group('m')), m.group('tree') or '')
        cells[key][m.group(3)] = b.get('floor_frac', 0)
    print('==', fam, v, 'copy GB/s', d['context'].get('copy_bandwidth_GBps'))
    rows = []
    for k in sorted(cells):
        c = cells[k]
        best_other = max(c.get('PerSystem',0), c.get('PerSystemOnChip',0))
        rows.append((k, c.get('Auto',0), c.get('SimdTiles',0), c.get('PerSystem',0), c.get('PerSystemOnChip',0)))
        print(f"  t{k[0]} {k[1]:6d} {k[2][:18]:18s} auto={c.get('Auto',0):.3f} tiles={c.get('SimdTiles',0):.3f} per={c.get('PerSystem',0):.3f} onchip={c.get('PerSystemOnChip',0):.3f} tiles/best_other={c.get('SimdTiles',0)/best_other if best_other else 0:.2f}")
