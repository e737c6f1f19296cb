TITLE ExpSyn: synaptic conductance that jumps by the event's weight and decays with tau
: HinesBatch's statement of NEURON's ExpSyn (see LICENSE.md).

NEURON {
    POINT_PROCESS ExpSyn
    RANGE tau, e, i
    NONSPECIFIC_CURRENT i
}

UNITS {
    (nA) = (nanoamp)
    (mV) = (millivolt)
    (uS) = (microsiemens)
}

PARAMETER {
    tau = 0.1 (ms) <1e-9, 1e9>
    e = 0 (mV)
}

ASSIGNED {
    v (mV)
    i (nA)
}

STATE { g (uS) }

INITIAL { g = 0 }

BREAKPOINT {
    SOLVE decay METHOD cnexp
    i = g * (v - e)
}

DERIVATIVE decay { g' = -g / tau }

NET_RECEIVE(weight (uS)) { g = g + weight }
