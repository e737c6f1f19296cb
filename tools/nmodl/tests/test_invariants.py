#!/usr/bin/python3
"""Per-instance invariants in the code hinesbatch-nmodl emits: ExpSyn's and Exp2Syn's decay
factors exp(-dt/tau) are computed once per instance by invariants(), which initial() calls
last, and their state() no longer calls exp; a PARAMETER that a block of the step writes is
never an invariant's input (tests/invariants/written_parameter.mod), one written only by
INITIAL is (Exp2Syn's tau1: invariants() runs after INITIAL).

  test_invariants.py path/to/hinesbatch-nmodl
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULTS = os.path.join(HERE, "..", "..", "..", "mechanisms", "default")


def function(text, name):
    """The body of generated function `name` (scalar or lanes) in a header's text."""
    m = re.search(r"static void %s\(Accessor& hb_a[^)]*\) \{\n(.*?)\n  \}\n" % re.escape(name), text,
                  re.S)
    if m is None:
        raise AssertionError(f"no function {name}")
    return m.group(1)


def variables(text):
    """(name, kind, range, written) of each entry of the variables table, in order."""
    return re.findall(r'\{"(\w+)", ::hinesbatch::nmodl::VariableKind::(\w+), [^,]+, (\w+), (\w+), \w+\}',
                      text)


def compiled(compiler, mods):
    """{header file name: text} of what the compiler makes of mods."""
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([compiler, "-o", out, "--catalogue", "inv"] + mods, capture_output=True,
                           text=True)
        if r.returncode != 0:
            raise AssertionError(f"hinesbatch-nmodl failed: {r.stderr}")
        return {f: open(os.path.join(out, f)).read() for f in os.listdir(out)}


def main():
    compiler = sys.argv[1]
    headers = compiled(compiler, [os.path.join(DEFAULTS, f) for f in ("expsyn.mod", "exp2syn.mod", "hh.mod")]
                       + [os.path.join(HERE, "invariants", "written_parameter.mod")])
    read = headers.__getitem__
    checks = []

    def check(what, ok):
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
        checks.append(ok)

    expsyn, exp2syn, hh, wp = read("expsyn.hpp"), read("exp2syn.hpp"), read("hh.hpp"), read("written_parameter.hpp")
    for name, text, decays in (("ExpSyn", expsyn, ["tau"]), ("Exp2Syn", exp2syn, ["tau1", "tau2"])):
        table = variables(text)
        names = [v[0] for v in table]
        inv = function(text, "invariants")
        check(f"{name}: num_invariants = {len(decays)}",
              f"static constexpr int num_invariants = {len(decays)};" in text)
        for k, tau in enumerate(decays):
            at = names.index(f"hb_invariant{k}") if f"hb_invariant{k}" in names else -1
            check(f"{name}: hb_invariant{k} is a written, non-RANGE assigned variable",
                  at >= 0 and table[at][1:] == ("Assigned", "false", "true"))
            check(f"{name}: invariants() sets hb_invariant{k} = exp(-dt/{tau})",
                  f"hb_a.template set<{at}>(exp((((-dt) / {tau}))));" in inv)
        state = function(text, "state")
        check(f"{name}: state() calls no exp and reads no dt", "exp(" not in state and "dt" not in state)
        check(f"{name}: state() reads its invariants",
              all(f"hb_invariant{k} = hb_a.template get<" in state for k in range(len(decays))))
        check(f"{name}: initial() ends with invariants(hb_a)",
              function(text, "initial").rstrip().endswith("invariants(hb_a);"))
    # Exp2Syn's tau1 is written by INITIAL (moved below tau2), by no block of the step.
    check("Exp2Syn: tau1 is written (INITIAL) and still an invariant's input",
          ("tau1", "Parameter", "true", "true") in variables(exp2syn)
          and "const double tau1 = hb_a.template get<0>();" in function(exp2syn, "invariants"))
    # hh: every exp reads v or a gate's rate; its q10 is a uniform (once per run), not stored.
    check("hh: no invariants, q10 stays a uniform", "num_invariants = 0;" in hh and "num_uniforms = 1;" in hh
          and "hb_invariant0" not in hh)
    # The written PARAMETER tau: its exp stays in the step; taufix's is hoisted, in the lanes
    # variant too.
    names = [v[0] for v in variables(wp)]
    tau, taufix = names.index("tau"), names.index("taufix")
    inv = function(wp, "invariants")
    check("written_parameter: one invariant, exp(-dt/taufix)", "num_invariants = 1;" in wp
          and "set<%d>(exp((((-dt) / taufix))));" % names.index("hb_invariant0") in inv)
    check("written_parameter: invariants() does not read tau (written by settau in the step)",
          f"get<{tau}>" not in inv and f"get<{taufix}>" in inv)
    state = function(wp, "state")
    check("written_parameter: state() keeps exp(-dt/tau) and reads the invariant",
          "exp((((-dt) / tau)))" in state and "(y * (hb_invariant0))" in state and "taufix" not in state)
    lanes = re.search(r"static void state_lanes\(Accessor& hb_a\) \{\n(.*?)\n  \}\n", wp, re.S)
    check("written_parameter: state_lanes reads the invariant per lane, not taufix",
          lanes is not None and "hb_invariant0[hb_l] = hb_a.template get<" in lanes.group(1)
          and "taufix" not in lanes.group(1) and "exp_lanes" in lanes.group(1))
    print(f"{sum(checks)}/{len(checks)} invariant checks pass")
    return 0 if all(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
