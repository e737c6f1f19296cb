import json, collections, re
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
    for t in (22,24):
      for lo,hi in ((0,300),(300,100001)) if fam=='thomas' else ((0,300),(300,1000),(1000,40000)):
        ks=[k for k in cells if k[0]==t and lo<=k[1]<hi]
        if not ks: continue
        tiles=[cells[k]['SimdTiles'] for k in ks]; auto=[cells[k]['Auto'] for k in ks]
        other=[max(cells[k]['PerSystem'],cells[k]['PerSystemOnChip']) for k in ks]
        ratio=[max(a,b)/o for a,b,o in zip(tiles,auto,other)]
        r2=[a/o for a,o in zip(tiles,other)]
        print(f"{fam} {v} t{t} size[{lo},{hi}) n={len(ks)} tiles {min(tiles):.2f}-{max(tiles):.2f} auto {min(auto):.2f}-{max(auto):.2f} best-other {min(other):.3f}-{max(other):.2f} tiles/other {min(r2):.2f}-{max(r2):.2f} median {sorted(r2)[len(r2)//2]:.2f}")
