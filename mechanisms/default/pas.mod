TITLE pas: passive leak current
: HinesBatch's statement of NEURON's pas (see LICENSE.md).

NEURON {
    SUFFIX pas
    NONSPECIFIC_CURRENT i
    RANGE g, e
}

UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
    (S) = (siemens)
}

PARAMETER {
    g = 0.001 (S/cm2) <0, 1e9>
    e = -70 (mV)
}

ASSIGNED {
    v (mV)
    i (mA/cm2)
}

BREAKPOINT {
    i = g * (v - e)
}
