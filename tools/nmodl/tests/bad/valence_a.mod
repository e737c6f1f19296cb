NEURON {
    SUFFIX xa
    USEION x READ ex WRITE ix VALENCE 1
}
ASSIGNED { v ex ix }
BREAKPOINT { ix = 0.001 * (v - ex) }
