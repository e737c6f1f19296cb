NEURON { SUFFIX ssf }
STATE { x y }
BREAKPOINT { SOLVE k METHOD sparse }
KINETIC k { ~ x <-> y (1, 2) }
FUNCTION xss() {
    SOLVE k STEADYSTATE sparse
    xss = x
}
