TITLE Exp2Syn: difference of two exponentials, rise tau1 and decay tau2, peak = weight
: HinesBatch's statement of NEURON's Exp2Syn (see LICENSE.md).

NEURON {
    POINT_PROCESS Exp2Syn
    RANGE tau1, tau2, e, i, g
    NONSPECIFIC_CURRENT i
}

UNITS {
    (nA) = (nanoamp)
    (mV) = (millivolt)
    (uS) = (microsiemens)
}

PARAMETER {
    tau1 = 0.1 (ms) <1e-9, 1e9>
    tau2 = 10 (ms) <1e-9, 1e9>
    e = 0 (mV)
}

ASSIGNED {
    v (mV)
    i (nA)
    g (uS)
    factor
}

STATE {
    A (uS)
    B (uS)
}

INITIAL {
    LOCAL tpeak
    : tau1 must stay below tau2 (and positive) for the normalisation to exist.
    if (tau1 / tau2 > 0.9999) { tau1 = 0.9999 * tau2 }
    if (tau1 / tau2 < 1e-9) { tau1 = tau2 * 1e-9 }
    A = 0
    B = 0
    tpeak = (tau1 * tau2) / (tau2 - tau1) * log(tau2 / tau1)
    factor = -exp(-tpeak / tau1) + exp(-tpeak / tau2)
    factor = 1 / factor
}

BREAKPOINT {
    SOLVE rise_decay METHOD cnexp
    g = B - A
    i = g * (v - e)
}

DERIVATIVE rise_decay {
    A' = -A / tau1
    B' = -B / tau2
}

NET_RECEIVE(weight (uS)) {
    A = A + weight * factor
    B = B + weight * factor
}
