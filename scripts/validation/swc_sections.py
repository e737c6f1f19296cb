#!/usr/bin/env python3
"""Independent reimplementation of HinesBatch's SWC -> sections rules.

Reads a raw SWC file and builds the list of sections (soma + unbranched neurite
sections) with the rules documented in scripts/validation/README.md, so that the
`sections` our simulator exports in MODEL.json can be cross-checked against a
second implementation ("same SWC, same cell").

Standard library only.

Usage:
  swc_sections.py FILE.swc [--nseg N | --max-segment-length-um L] [--json OUT.json]
  swc_sections.py FILE.swc [...] --check MODEL.json [--morphology I]
      exit 0 when the exported sections match, 1 otherwise.
"""

import argparse
import json
import math
import sys

MIN_DIAM = 0.02
PT_TOL = 1e-9


class SwcPoint(object):
    __slots__ = ("id", "type", "x", "y", "z", "r", "parent", "children")

    def __init__(self, pid, ptype, x, y, z, r, parent):
        self.id = pid
        self.type = ptype
        self.x = x
        self.y = y
        self.z = z
        self.r = r
        self.parent = parent
        self.children = []

    @property
    def diam(self):
        return max(2.0 * self.r, MIN_DIAM)


def read_swc(path):
    """Returns {id: SwcPoint}; children lists sorted by SWC id."""
    pts = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) < 7:
                raise ValueError("%s:%d: expected 7 fields, got %d" % (path, lineno, len(fields)))
            pid = int(fields[0])
            ptype = int(float(fields[1]))
            x, y, z, r = (float(v) for v in fields[2:6])
            parent = int(float(fields[6]))
            if pid in pts:
                raise ValueError("%s:%d: duplicate id %d" % (path, lineno, pid))
            pts[pid] = SwcPoint(pid, ptype, x, y, z, r, parent)
    for p in pts.values():
        if p.parent != -1 and p.parent >= 0:
            if p.parent not in pts:
                raise ValueError("%s: point %d has unknown parent %d" % (path, p.id, p.parent))
            pts[p.parent].children.append(p.id)
    for p in pts.values():
        p.children.sort()
    return pts


def _dist(a, b):
    return math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2)


def section_length(pt3d):
    return sum(_dist(pt3d[i - 1], pt3d[i]) for i in range(1, len(pt3d)))


def nseg_for(length, nseg=None, max_segment_length_um=None):
    if nseg is not None:
        return int(nseg)
    if max_segment_length_um is None:
        return 1
    n = int(math.ceil(length / float(max_segment_length_um)))
    if n < 1:
        n = 1
    if n % 2 == 0:
        n += 1
    return n


def nseg_is_borderline(length, max_segment_length_um, eps=1e-9):
    """True when length/L is (numerically) an integer: ceil() may differ between implementations."""
    if max_segment_length_um is None:
        return False
    q = length / float(max_segment_length_um)
    return abs(q - round(q)) < eps * max(1.0, q)


def build_sections(path_or_points, nseg=None, max_segment_length_um=None):
    """Returns a list of dicts {id, parent, parent_x, swc_type, nseg, pt3d, length}."""
    pts = read_swc(path_or_points) if isinstance(path_or_points, str) else path_or_points
    roots = sorted(p.id for p in pts.values() if p.parent < 0)
    if not roots:
        raise ValueError("SWC has no root (parent -1)")
    if len(roots) > 1:
        raise ValueError("SWC has %d roots (%s); exactly one expected" % (len(roots), roots[:5]))
    root = pts[roots[0]]

    # 1. soma points: type-1 points reached from a type-1 root through type-1 points
    soma = set()
    if root.type == 1:
        stack = [root.id]
        while stack:
            i = stack.pop()
            soma.add(i)
            for c in pts[i].children:
                if pts[c].type == 1:
                    stack.append(c)

    def P(i, diam=None):
        p = pts[i]
        return [p.x, p.y, p.z, p.diam if diam is None else diam]

    sections = []
    if soma:
        def soma_nbrs(i):
            n = [c for c in pts[i].children if c in soma]
            if pts[i].parent in soma:
                n.append(pts[i].parent)
            return n

        if len(soma) == 1:
            x, y, z, r = root.x, root.y, root.z, root.r
            d = max(2.0 * r, MIN_DIAM)
            spt = [[x, y - r, z, d], [x, y + r, z, d]]
        elif all(len(soma_nbrs(i)) <= 2 for i in soma):
            # path: find the start end
            rn = soma_nbrs(root.id)
            if len(rn) <= 1:
                start = root.id
            else:
                first = min(c for c in root.children if c in soma)
                prev, cur = root.id, first
                while True:
                    nxt = [n for n in soma_nbrs(cur) if n != prev]
                    if not nxt:
                        break
                    prev, cur = cur, nxt[0]
                start = cur
            order = [start]
            prev, cur = None, start
            while True:
                nxt = [n for n in soma_nbrs(cur) if n != prev]
                if not nxt:
                    break
                prev, cur = cur, nxt[0]
                order.append(cur)
            assert len(order) == len(soma), "soma path does not cover all soma points"
            spt = [P(i) for i in order]
        else:
            area = 0.0
            for i in soma:
                p = pts[i]
                if p.parent in soma:
                    q = pts[p.parent]
                    l = _dist((p.x, p.y, p.z), (q.x, q.y, q.z))
                    area += math.pi * (p.r + q.r) * math.sqrt(l * l + (p.r - q.r) ** 2)
            D = math.sqrt(area / math.pi)
            spt = [[root.x, root.y - D / 2.0, root.z, D], [root.x, root.y + D / 2.0, root.z, D]]
        sections.append({"parent_start": None, "swc_type": 1, "pt3d": spt, "nseg": 1,
                         "second": None, "last": None, "soma": True})

    # 2. neurite sections: (start point, first point after it)
    starts = []
    for p in pts.values():
        if p.id in soma:
            for c in p.children:
                if c not in soma:
                    starts.append((p.id, c))
        elif p.id == root.id:
            for c in p.children:
                starts.append((p.id, c))
        elif len(p.children) >= 2:
            for c in p.children:
                starts.append((p.id, c))
    starts.sort(key=lambda sc: sc[1])  # 3. numbering by SWC id of the second point

    neurites = []
    for s, c in starts:
        chain = [c]
        cur = c
        while len(pts[cur].children) == 1:
            cur = pts[cur].children[0]
            chain.append(cur)
        if s in soma:
            first = P(s, diam=pts[c].diam)
        else:
            first = P(s)
        pt3d = [first] + [P(i) for i in chain]
        neurites.append({"start": s, "second": c, "last": chain[-1], "pt3d": pt3d,
                         "swc_type": pts[c].type})

    base = 1 if soma else 0
    by_last = {}
    for k, sec in enumerate(neurites):
        sec["id"] = base + k
        by_last[sec["last"]] = sec["id"]
    root_section = None
    if not soma:
        first_child = min(root.children) if root.children else None
        for sec in neurites:
            if sec["start"] == root.id and sec["second"] == first_child:
                root_section = sec["id"]

    out = []
    if soma:
        s = sections[0]
        out.append({"id": 0, "parent": -1, "parent_x": 0.0, "swc_type": 1, "nseg": 1,
                    "pt3d": s["pt3d"], "length": section_length(s["pt3d"])})
    for sec in neurites:
        s = sec["start"]
        if s in soma:
            parent, px = 0, 0.5
        elif s == root.id:
            if sec["id"] == root_section:
                parent, px = -1, 0.0
            else:
                parent, px = root_section, 0.0
        else:
            parent, px = by_last[s], 1.0
        length = section_length(sec["pt3d"])
        out.append({"id": sec["id"], "parent": parent, "parent_x": px,
                    "swc_type": sec["swc_type"],
                    "nseg": nseg_for(length, nseg, max_segment_length_um),
                    "pt3d": sec["pt3d"], "length": length})
    return out


def compare_sections(exported, reference, max_segment_length_um=None, tol=PT_TOL, limit=20):
    """Returns a list of human-readable mismatch strings (empty when equal)."""
    errs = []
    if len(exported) != len(reference):
        errs.append("number of sections: exported %d, reference %d" % (len(exported), len(reference)))
        return errs
    for i, (a, b) in enumerate(zip(exported, reference)):
        if len(errs) >= limit:
            errs.append("... (more mismatches not shown)")
            break
        if int(a.get("id", i)) != b["id"]:
            errs.append("section %d: id %s" % (i, a.get("id")))
        for key in ("parent", "swc_type", "nseg"):
            if int(a[key]) != int(b[key]):
                msg = "section %d: %s exported %s, reference %s" % (i, key, a[key], b[key])
                if key == "nseg" and nseg_is_borderline(b["length"], max_segment_length_um):
                    msg += " (length/L is an integer: borderline ceil)"
                errs.append(msg)
        if abs(float(a["parent_x"]) - b["parent_x"]) > 1e-12:
            errs.append("section %d: parent_x exported %s, reference %s" % (i, a["parent_x"], b["parent_x"]))
        pa, pb = a["pt3d"], b["pt3d"]
        if len(pa) != len(pb):
            errs.append("section %d: %d pt3d points exported, %d reference" % (i, len(pa), len(pb)))
            continue
        for j, (u, v) in enumerate(zip(pa, pb)):
            d = max(abs(float(u[k]) - v[k]) for k in range(4))
            if d > tol:
                errs.append("section %d pt3d[%d]: exported %s, reference %s" % (i, j, list(u), v))
                break
    return errs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("swc")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--nseg", type=int)
    g.add_argument("--max-segment-length-um", type=float)
    ap.add_argument("--json", help="write the sections (MODEL.json 'sections' format) here")
    ap.add_argument("--check", metavar="MODEL.json", help="compare with the sections of this exported model")
    ap.add_argument("--morphology", type=int, default=0, help="morphology index in MODEL.json (default 0)")
    a = ap.parse_args(argv)

    secs = build_sections(a.swc, a.nseg, a.max_segment_length_um)
    nsoma = sum(1 for s in secs if s["swc_type"] == 1 and s["parent"] == -1)
    print("%s: %d sections (%s soma), %d segments, %d pt3d points" % (
        a.swc, len(secs), "with" if nsoma else "no", sum(s["nseg"] for s in secs),
        sum(len(s["pt3d"]) for s in secs)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{k: s[k] for k in ("id", "parent", "parent_x", "swc_type", "nseg", "pt3d")}
                       for s in secs], f, indent=1)
    if a.check:
        with open(a.check) as f:
            model = json.load(f)
        exported = model["morphologies"][a.morphology]["sections"]
        errs = compare_sections(exported, secs, a.max_segment_length_um)
        if errs:
            print("SECTIONS MISMATCH (%s vs %s):" % (a.check, a.swc))
            for e in errs:
                print("  " + e)
            return 1
        print("sections match (%d sections)" % len(secs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
