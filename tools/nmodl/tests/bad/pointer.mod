NEURON {
    SUFFIX reader
    POINTER p
}
ASSIGNED { p }
