NEURON {
    SUFFIX monoca
    USEION ca READ eca WRITE ica VALENCE 1
}
ASSIGNED { v eca ica }
BREAKPOINT { ica = 0.001 * (v - eca) }
