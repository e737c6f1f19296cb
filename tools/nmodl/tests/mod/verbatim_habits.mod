: VERBATIM blocks that published models carry and that do nothing here: a top-level
: #include, `return 0;` ending a PROCEDURE that SOLVE runs (the older integration style:
: the gate advanced by its exact exponential in a PROCEDURE), `return;` ending INITIAL, and
: one of comments only. The compiler leaves them out with a warning each.
VERBATIM
#include <stdlib.h> /* for NEURON's own C: free() */
ENDVERBATIM

NEURON {
    SUFFIX vbhabits
    USEION k READ ek WRITE ik
    RANGE gbar
}

UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
    (S) = (siemens)
}

PARAMETER {
    gbar = 0.02 (S/cm2)
}

ASSIGNED {
    v (mV)
    ek (mV)
    ik (mA/cm2)
    ninf
    taun (ms)
}

STATE {
    n
}

BREAKPOINT {
    SOLVE states
    ik = gbar * n * n * (v - ek)
}

INITIAL {
    rates(v)
    n = ninf
    VERBATIM
    return;
    ENDVERBATIM
}

PROCEDURE states() {
    rates(v)
    n = n + (1 - exp(-dt / taun)) * (ninf - n)
    VERBATIM
    /* n is advanced exactly for constant v */
    ENDVERBATIM
    VERBATIM
    return 0;
    ENDVERBATIM
}

PROCEDURE rates(v (mV)) {
    ninf = 1 / (1 + exp(-(v + 35) / 8))
    taun = 2 + 10 / (1 + exp((v + 40) / 10))
}
