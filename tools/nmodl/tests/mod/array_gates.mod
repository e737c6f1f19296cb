: Three gates in an array (STATE, ASSIGNED and GLOBAL arrays, FROM loops over them, a
: DEFINE for the size, a KINETIC scheme per gate): the compiler makes each element a
: scalar. A KINETIC block, as NEURON 8.2's nocmodl writes C that does not compile for an
: array state in a DERIVATIVE block.
NEURON {
    SUFFIX gates3
    USEION k READ ek WRITE ik
    RANGE gbar, g
    GLOBAL tau
}

DEFINE NG 3

UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
    (S) = (siemens)
}

PARAMETER {
    gbar = 0.01 (S/cm2)
}

ASSIGNED {
    v (mV)
    ek (mV)
    ik (mA/cm2)
    g (S/cm2)
    tau[NG] (ms)
    inf[NG]
}

STATE {
    c[NG]
    m[NG]
}

INITIAL {
    rates(v)
    FROM i = 0 TO NG - 1 {
        m[i] = inf[i]
        c[i] = 1 - inf[i]
    }
}

BREAKPOINT {
    SOLVE states METHOD sparse
    g = gbar
    FROM i = 0 TO NG - 1 {
        g = g * m[i]
    }
    ik = g * (v - ek)
}

KINETIC states {
    rates(v)
    FROM i = 0 TO NG - 1 {
        ~ c[i] <-> m[i] (inf[i] / tau[i], (1 - inf[i]) / tau[i])
    }
}

PROCEDURE rates(v (mV)) {
    FROM i = 0 TO NG - 1 {
        inf[i] = 1 / (1 + exp(-(v + 40 - 10 * i) / (5 + i)))
        tau[i] = 1 + 2 * i
    }
}
