TITLE hh: Hodgkin-Huxley sodium, potassium and leak channels (squid axon, 1952)
: HinesBatch's statement of the model NEURON ships as hh (see LICENSE.md). The rates are
: computed exactly at every call (NEURON's hh with usetable_hh = 0).

NEURON {
    SUFFIX hh
    USEION na READ ena WRITE ina
    USEION k READ ek WRITE ik
    NONSPECIFIC_CURRENT il
    RANGE gnabar, gkbar, gl, el, gna, gk
    GLOBAL minf, hinf, ninf, mtau, htau, ntau
    THREADSAFE
}

UNITS {
    (mA) = (milliamp)
    (mV) = (millivolt)
    (S) = (siemens)
}

PARAMETER {
    gnabar = 0.12 (S/cm2) <0, 1e9>
    gkbar = 0.036 (S/cm2) <0, 1e9>
    gl = 0.0003 (S/cm2) <0, 1e9>
    el = -54.3 (mV)
}

STATE { m h n }

ASSIGNED {
    v (mV)
    celsius (degC)
    ena (mV)
    ek (mV)
    gna (S/cm2)
    gk (S/cm2)
    ina (mA/cm2)
    ik (mA/cm2)
    il (mA/cm2)
    minf hinf ninf
    mtau (ms) htau (ms) ntau (ms)
}

BREAKPOINT {
    SOLVE gates METHOD cnexp
    gna = gnabar * m * m * m * h
    ina = gna * (v - ena)
    gk = gkbar * n * n * n * n
    ik = gk * (v - ek)
    il = gl * (v - el)
}

INITIAL {
    settle(v)
    m = minf
    h = hinf
    n = ninf
}

DERIVATIVE gates {
    settle(v)
    m' = (minf - m) / mtau
    h' = (hinf - h) / htau
    n' = (ninf - n) / ntau
}

: Steady states and time constants of the three gates at membrane potential u.
PROCEDURE settle(u (mV)) {
    LOCAL a, b, s, q10
    UNITSOFF
    q10 = 3 ^ ((celsius - 6.3) / 10)
    a = 0.1 * efrac(-(u + 40), 10)
    b = 4 * exp(-(u + 65) / 18)
    s = a + b
    mtau = 1 / (q10 * s)
    minf = a / s
    a = 0.07 * exp(-(u + 65) / 20)
    b = 1 / (exp(-(u + 35) / 10) + 1)
    s = a + b
    htau = 1 / (q10 * s)
    hinf = a / s
    a = 0.01 * efrac(-(u + 55), 10)
    b = 0.125 * exp(-(u + 65) / 80)
    s = a + b
    ntau = 1 / (q10 * s)
    ninf = a / s
    UNITSON
}

: x / (exp(x / y) - 1), by its first-order expansion where x / y is tiny (0 / 0).
FUNCTION efrac(x, y) {
    if (fabs(x / y) < 1e-6) {
        efrac = y * (1 - x / y / 2)
    } else {
        efrac = x / (exp(x / y) - 1)
    }
}
