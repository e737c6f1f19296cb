#!/usr/bin/python3
"""The sweep's density mechanisms (tools/nmodl/tests/mod/zz_sweep_*.mod, copied there for
the run) against NEURON 8.2, one compartment: nmodl_vs_neuron.py's harness with these cases.
Arguments as nmodl_vs_neuron.py's."""
import glob, os, re, sys
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "scripts", "validation"))
import nmodl_vs_neuron as H

def info(path):
    t = open(path).read()
    t = re.sub(r"(?s)COMMENT.*?ENDCOMMENT", "", t)
    t = re.sub(r":[^\n]*", "", t)
    suffix = re.search(r"\bSUFFIX\s+(\w+)", t).group(1)
    st = re.search(r"(?s)\bSTATE\s*\{(.*?)\}", t)
    states = re.findall(r"^\s*([A-Za-z_]\w*)", st.group(1), re.M) if st else []
    states = [s for s in states if not s.endswith("i") or len(s) > 3][:3]
    ions = []
    for m in re.finditer(r"USEION\s+(\w+)[^\n]*WRITE\s+([\w\s,]+)", t):
        ions += [w.strip() for w in m.group(2).split(",") if w.strip().startswith("i")]
    return suffix, states, ions

def cases():
    c = []
    for p in sorted(glob.glob(os.path.join(REPO, "tools", "nmodl", "tests", "mod", "zz_sweep_*.mod"))):
        suffix, states, ions = info(p)
        name = os.path.basename(p)[9:-4]
        ions = []
        c.append(H.channel_case(f"sw_{name}_vclamp", suffix, None, 0, states, ions, "vclamp",
                                celsius=34.0))
        c.append(H.channel_case(f"sw_{name}_iclamp", suffix, None, 0, states, ions, ("iclamp", 0.1),
                                extra=[H.PAS], celsius=34.0))
    return c

H.cases = cases
sys.exit(H.main())
