NEURON {
    SUFFIX xb

    USEION x READ ex WRITE ix VALENCE 2
}
ASSIGNED { v ex ix }
BREAKPOINT { ix = 0.002 * (v - ex) }
