NEURON {
    SUFFIX callsout
    NONSPECIFIC_CURRENT i
}
ASSIGNED { v i }
BREAKPOINT {
    i = 0.001 * nowhere(v)
}
