: A FUNCTION for hoc that asks for a steady state: nothing calls it here.
NEURON { SUFFIX hocf }
STATE { x y }
BREAKPOINT { SOLVE k METHOD sparse }
KINETIC k { ~ x <-> y (1, 2) }
FUNCTION xss() {
    SOLVE k STEADYSTATE sparse
    xss = x
}
