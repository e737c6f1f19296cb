TITLE hhdi: hh's gates advanced by derivimplicit (implicit Euler) instead of cnexp
: A test of METHOD derivimplicit on ODEs linear in their state (SymPy solves the implicit
: step exactly; NEURON iterates Newton's method).

NEURON {
    SUFFIX hhdi
    USEION na READ ena WRITE ina
    USEION k READ ek WRITE ik
    NONSPECIFIC_CURRENT il
    RANGE gnabar, gkbar, gl, el
    THREADSAFE
}

PARAMETER {
    gnabar = 0.12 (S/cm2)
    gkbar = 0.036 (S/cm2)
    gl = 0.0003 (S/cm2)
    el = -54.3 (mV)
}

STATE { m h n }

ASSIGNED {
    v (mV) celsius (degC) ena (mV) ek (mV)
    ina (mA/cm2) ik (mA/cm2) il (mA/cm2)
    minf hinf ninf mtau htau ntau
}

BREAKPOINT {
    SOLVE gates METHOD derivimplicit
    ina = gnabar * m * m * m * h * (v - ena)
    ik = gkbar * n * n * n * n * (v - ek)
    il = gl * (v - el)
}

INITIAL {
    rates(v)
    m = minf
    h = hinf
    n = ninf
}

DERIVATIVE gates {
    rates(v)
    m' = (minf - m) / mtau
    h' = (hinf - h) / htau
    n' = (ninf - n) / ntau
}

PROCEDURE rates(u (mV)) {
    LOCAL a, b, q10
    UNITSOFF
    q10 = 3 ^ ((celsius - 6.3) / 10)
    a = 0.1 * (u + 40) / (1 - exp(-(u + 40) / 10))
    b = 4 * exp(-(u + 65) / 18)
    mtau = 1 / (q10 * (a + b))
    minf = a / (a + b)
    a = 0.07 * exp(-(u + 65) / 20)
    b = 1 / (exp(-(u + 35) / 10) + 1)
    htau = 1 / (q10 * (a + b))
    hinf = a / (a + b)
    a = 0.01 * (u + 55) / (1 - exp(-(u + 55) / 10))
    b = 0.125 * exp(-(u + 65) / 80)
    ntau = 1 / (q10 * (a + b))
    ninf = a / (a + b)
    UNITSON
}
