: Loops over arrays as the compiler unrolls them: a PARAMETER array (RANGE), a FROM loop
: with BY, nested loops indexing 2 k + j, an index of DEFINE arithmetic (N - 1 - k), a
: loop in KINETIC. (NEURON 8.2's nocmodl fails on a CONSERVE of array elements: none here.)
NEURON {
    SUFFIX arrloops
    NONSPECIFIC_CURRENT i
    RANGE gbar, w, total
}
DEFINE N 4
PARAMETER {
    gbar = 0.001 (S/cm2)
    w[N]
}
ASSIGNED { v (mV) i (mA/cm2) rate[N] total }
STATE { c[N] }
INITIAL {
    FROM k = 0 TO N - 1 {
        w[k] = 1 + k
        c[k] = 0
    }
    c[0] = 1
}
BREAKPOINT {
    SOLVE scheme METHOD sparse
    total = 0
    FROM k = 0 TO N - 1 BY 2 {
        total = total + w[k] * c[k]
    }
    FROM k = 0 TO 1 {
        FROM j = 0 TO 1 {
            total = total + 0.01 * c[2 * k + j]
        }
    }
    i = gbar * total * (v + 20)
}
KINETIC scheme {
    FROM k = 0 TO N - 1 {
        rate[k] = 0.1 * (k + 1) * exp(v / 40)
    }
    FROM k = 0 TO N - 2 {
        ~ c[k] <-> c[k + 1] (rate[k], rate[N - 1 - k] / 2)
    }
}
