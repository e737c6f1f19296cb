NEURON { SUFFIX ssf RANGE y0 }
STATE { x y }
ASSIGNED { y0 }
BREAKPOINT { SOLVE k METHOD sparse }
KINETIC k { ~ x <-> y (1, 2) }
INITIAL { y0 = xss() }
FUNCTION xss() {
    SOLVE k STEADYSTATE sparse
    xss = x
}
