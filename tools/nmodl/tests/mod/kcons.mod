TITLE kcons: a three-state potassium channel started at its steady state
COMMENT
A linear kinetic scheme C1 <-> C2 <-> O whose last state is given by CONSERVE (NEURON's
sparse and NMODL's kinetic pass both replace O's equation by the sum), started in INITIAL
at the steady state of the voltage it starts at (SOLVE ... STEADYSTATE sparse).
ENDCOMMENT

NEURON {
    SUFFIX kcons
    USEION k READ ek WRITE ik
    RANGE gbar
}

UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
}

PARAMETER {
    gbar = 0.01 (mho/cm2)
}

ASSIGNED {
    v (mV)
    ek (mV)
    ik (mA/cm2)
    a (/ms)
    b (/ms)
}

STATE { C1 C2 O }

INITIAL {
    SOLVE kin STEADYSTATE sparse
}

BREAKPOINT {
    SOLVE kin METHOD sparse
    ik = gbar*O*(v - ek)
}

KINETIC kin {
    rates(v)
    ~ C1 <-> C2 (2*a, b)
    ~ C2 <-> O (a, 2*b)
    CONSERVE C1 + C2 + O = 1
}

PROCEDURE rates(v (mV)) {
    a = 0.1*exp((v + 40)/20)
    b = 0.2*exp(-(v + 40)/25)
}
