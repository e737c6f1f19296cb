: A conductance that relaxes from 0 to gmax after `onset` with time constant tau: a point
: process without NET_RECEIVE, placed on a cell (cell.point_processes), not connected. It
: reads t in its DERIVATIVE block and v in its BREAKPOINT.
NEURON {
    POINT_PROCESS TonicSyn
    RANGE onset, tau, gmax, e, i, g
    NONSPECIFIC_CURRENT i
}

UNITS {
    (nA) = (nanoamp)
    (mV) = (millivolt)
    (uS) = (microsiemens)
}

PARAMETER {
    onset = 5 (ms)
    tau = 3 (ms)
    gmax = 0.002 (uS)
    e = 0 (mV)
}

ASSIGNED {
    v (mV)
    i (nA)
    target (uS)
}

STATE {
    g (uS)
}

INITIAL {
    g = 0
}

BREAKPOINT {
    SOLVE states METHOD cnexp
    i = g * (v - e)
}

DERIVATIVE states {
    if (t < onset) {
        target = 0
    } else {
        target = gmax
    }
    g' = (target - g) / tau
}
