COMMENT
Two decaying states: x with tau, a PARAMETER that the PROCEDURE its DERIVATIVE block calls
rewrites every step (so exp(-dt/tau) must stay in the step), y with taufix, which no block
writes (so exp(-dt/taufix) is a per-instance invariant). The hinesbatch-nmodl test of
per-instance invariants (test_invariants.py) compiles it.
ENDCOMMENT

NEURON {
    SUFFIX written_parameter
    NONSPECIFIC_CURRENT i
    RANGE tau, taufix, gbar, e, i
}

UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
    (S) = (siemens)
}

PARAMETER {
    tau = 5 (ms)
    taufix = 3 (ms)
    gbar = 0.001 (S/cm2)
    e = -70 (mV)
}

ASSIGNED {
    v (mV)
    i (mA/cm2)
}

STATE { x y }

INITIAL {
    x = 1
    y = 1
}

BREAKPOINT {
    SOLVE states METHOD cnexp
    i = gbar * (x + y) * (v - e)
}

DERIVATIVE states {
    settau(v)
    x' = -x / tau
    y' = -y / taufix
}

PROCEDURE settau(v (mV)) {
    tau = 5 + v / 100
}
