NEURON {
    SUFFIX mixed
    USEION ca READ ena WRITE ica
}
ASSIGNED { v ena ica }
BREAKPOINT { ica = 0.001 * (v - ena) }
