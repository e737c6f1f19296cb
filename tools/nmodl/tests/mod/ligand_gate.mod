TITLE ligandgate: a channel opened by a ligand that the membrane voltage releases
COMMENT
A nonlinear kinetic scheme: ligand L, released from a store S at a rate that grows with v
and taken back at rate kdecay, binds receptors R (L + R <-> LR, second order in the
states), and the bound receptors conduct. CONSERVE keeps R + LR = 1 (the last named
state's equation replaced by the sum, in NEURON's sparse and in NMODL's kinetic pass).
INITIAL starts the scheme at its steady state (SOLVE ... STEADYSTATE sparse: Newton's
method on an implicit step of 1e9 ms).
ENDCOMMENT

NEURON {
    SUFFIX ligandgate
    NONSPECIFIC_CURRENT i
    RANGE gbar, e, kon, koff, kdecay, release
}

UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
}

PARAMETER {
    gbar = 0.002 (mho/cm2)
    e = -20 (mV)
    kon = 5 (/ms)
    koff = 0.2 (/ms)
    kdecay = 0.5 (/ms)
    release = 0.05 (/ms)
}

ASSIGNED {
    v (mV)
    i (mA/cm2)
}

STATE { S L R LR }

INITIAL {
    S = 1
    R = 1
    SOLVE bind STEADYSTATE sparse
}

BREAKPOINT {
    SOLVE bind METHOD sparse
    i = gbar*LR*(v - e)
}

KINETIC bind {
    ~ S <-> L (release*exp((v + 50)/10), kdecay)
    ~ L + R <-> LR (kon, koff)
    CONSERVE R + LR = 1
}
