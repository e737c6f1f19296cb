#!/usr/bin/python3
"""Bad .mod files are refused by hinesbatch-nmodl with exit status 2 and a message
"FILE:LINE: error: CONSTRUCT: reason"; nothing is written. A good file still compiles.

  test_refusals.py path/to/hinesbatch-nmodl
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(HERE, "bad")

# files, the file and line the message must name, its construct, words of its reason
CASES = [
    (["syntax_error.mod"], "syntax_error.mod", 9, "syntax", "syntax error"),
    (["verbatim.mod"], "verbatim.mod", 7, "VERBATIM", "C code"),
    (["unknown_ion.mod"], "unknown_ion.mod", 3, "USEION hcn", "unknown ion 'hcn'"),
    (["conflicting_useion.mod"], "conflicting_useion.mod", 4, "USEION ca", "conflicting USEION"),
    (["wrong_valence.mod"], "wrong_valence.mod", 3, "USEION ca", "conflicting USEION: VALENCE 1"),
    (["valence_a.mod", "valence_b.mod"], "valence_b.mod", 4, "USEION x",
     "valence_a.mod:3 declares VALENCE 1"),
    (["bad_ion_variable.mod"], "bad_ion_variable.mod", 3, "USEION ca", "'ena' is not a variable of ion ca"),
    (["net_send.mod"], "net_send.mod", 9, "net_send()", "outside NET_RECEIVE"),
    (["net_send_arguments.mod"], "net_send_arguments.mod", 10, "net_send()", "two arguments"),
    (["net_event.mod"], "net_event.mod", 8, "net_event()", "ARTIFICIAL_CELL's NET_RECEIVE only"),
    (["artificial_breakpoint.mod"], "artificial_breakpoint.mod", 7, "BREAKPOINT",
     "only event-driven ones"),
    (["artificial_no_receive.mod"], "artificial_no_receive.mod", 2, "ARTIFICIAL_CELL",
     "without NET_RECEIVE"),
    (["runge.mod"], "runge.mod", 4, "METHOD runge", "supported methods"),
    (["unknown_function.mod"], "unknown_function.mod", 7, "nowhere()", "unknown function"),
    (["pointer.mod"], "pointer.mod", 3, "POINTER", "not supported"),
    (["assigns_dt.mod"], "assigns_dt.mod", 4, "assignment to dt", "may only read it"),
    (["steadystate_in_function.mod"], "steadystate_in_function.mod", 8, "STEADYSTATE",
     "in INITIAL only"),
    (["array_runtime_index.mod"], "array_runtime_index.mod", 6, "array index", "'k' is not a constant"),
    (["array_out_of_bounds.mod"], "array_out_of_bounds.mod", 6, "a[3]", "index out of bounds"),
    (["steadystate_unsolved.mod"], "steadystate_unsolved.mod", 4, "SOLVE k STEADYSTATE sparse",
     "BREAKPOINT also SOLVEs it"),
    (["conserve_in_derivative.mod"], "conserve_in_derivative.mod", 6, "CONSERVE",
     "KINETIC blocks only"),
    (["random_in_density.mod"], "random_in_density.mod", 7, "normrand()",
     "supported in an ARTIFICIAL_CELL"),
    (["set_seed.mod"], "set_seed.mod", 4, "set_seed()", "seeded by its sources entry's seed"),
]


def main():
    compiler = sys.argv[1]
    failures = 0
    for files, named, line, construct, reason in CASES:
        with tempfile.TemporaryDirectory() as out:
            r = subprocess.run([compiler, "-o", out, "--catalogue", "bad"] +
                               [os.path.join(BAD, f) for f in files], capture_output=True, text=True)
            msg = r.stderr.strip()
            want = f"{named}:{line}: error: {construct}: "
            ok = r.returncode == 2 and want in msg and reason in msg and not os.listdir(out)
            print(f"{'ok  ' if ok else 'FAIL'} {' '.join(files)}: exit {r.returncode}: {msg}")
            if not ok:
                print(f"     expected exit 2 and '{want}...{reason}', no files written")
                failures += 1
    good = os.path.join(os.path.dirname(HERE), "..", "..", "mechanisms", "default", "hh.mod")
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([compiler, "-o", out, "--catalogue", "good", good], capture_output=True, text=True)
        ok = r.returncode == 0 and sorted(os.listdir(out)) == ["good.hpp", "good.json", "hh.hpp"]
        print(f"{'ok  ' if ok else 'FAIL'} hh.mod compiles: exit {r.returncode} {r.stderr.strip()}")
        failures += 0 if ok else 1
    # Files that compile with a warning naming the line: a nonlinear cnexp ODE (NMODL solves
    # it exactly); a FUNCTION that holds a SOLVE and that nothing calls (one for hoc).
    for name, want in (("nonlinear_cnexp.mod", "nonlinear_cnexp.mod:7: warning: cnexp on x'"),
                       ("hoc_function.mod", "hoc_function.mod:6: warning: FUNCTION xss holds a SOLVE")):
        with tempfile.TemporaryDirectory() as out:
            r = subprocess.run([compiler, "-o", out, "--catalogue", "w", os.path.join(HERE, "warn", name)],
                               capture_output=True, text=True)
            ok = r.returncode == 0 and want in r.stderr
            print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {r.returncode}: {r.stderr.strip()}")
            failures += 0 if ok else 1
    # A catalogue named like a math function would hide it from the generated calls.
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([compiler, "-o", out, "--catalogue", "exp", good], capture_output=True, text=True)
        ok = r.returncode == 2 and "--catalogue 'exp'" in r.stderr and "math function" in r.stderr \
            and not os.listdir(out)
        print(f"{'ok  ' if ok else 'FAIL'} --catalogue exp refused: exit {r.returncode}: {r.stderr.strip()}")
        failures += 0 if ok else 1
    # ... or like the catalogue struct's own members (a member named as its class), or like
    # one of its mechanisms.
    for name, words in (("mechanisms", "names a member of every catalogue"),
                        ("hh", "mechanism name is the catalogue's")):
        with tempfile.TemporaryDirectory() as out:
            r = subprocess.run([compiler, "-o", out, "--catalogue", name, good], capture_output=True,
                               text=True)
            ok = r.returncode == 2 and words in r.stderr and not os.listdir(out)
            print(f"{'ok  ' if ok else 'FAIL'} --catalogue {name} refused: exit {r.returncode}: "
                  f"{r.stderr.strip()}")
            failures += 0 if ok else 1
    print(f"{len(CASES) + 6 - failures}/{len(CASES) + 6} refusal checks pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
