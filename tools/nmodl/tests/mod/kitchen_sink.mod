TITLE kitchen_sink: many NMODL constructs in one test file (loops, CONSTANT, a unit factor,
: FUNCTION with else-if, PROCEDURE with TABLE, GLOBAL, a nonlinear derivimplicit pair)

NEURON {
    SUFFIX kitchen
    USEION k READ ek WRITE ik
    RANGE gbar, g, count
    GLOBAL vhalf
}
UNITS { (mV) = (millivolt) (mA) = (milliamp) F = (faraday) (kilocoulombs) }
CONSTANT { q = 2.5 }
PARAMETER { gbar = 0.01 (S/cm2) vhalf = -30 (mV) k = 6 }
STATE { a b }
ASSIGNED { v ek ik g ainf atau count }
INITIAL { LOCAL i
    i = 0
    count = 0
    while (i < 3) { count = count + 1  i = i + 1 }
    FROM i = 0 TO 2 { count = count + i }
    settle(v)
    a = ainf
    b = 0.5 }
BREAKPOINT {
    SOLVE st METHOD derivimplicit
    g = gbar * a * a * b
    ik = g * (v - ek) * sat(v) }
DERIVATIVE st {
    settle(v)
    a' = (ainf - a) / atau
    b' = -b * a / (2 * atau) + (1 - b) * 0.01
}
FUNCTION sat(x (mV)) {
    if (x > 40) { sat = 1 } else if (x < -100) { sat = 0.5 } else { sat = 0.75 + 0.25 * tanh((x + 30) / 20) }
}
PROCEDURE settle(x (mV)) { LOCAL r
    TABLE ainf, atau DEPEND vhalf FROM -120 TO 60 WITH 360
    ainf = 1 / (1 + exp(-(x - vhalf) / k))
    r = fabs(x - vhalf) / 10 + 1e-3 * F / F
    atau = q / (exp(-r) + log(1 + r) + 0.5)
}
