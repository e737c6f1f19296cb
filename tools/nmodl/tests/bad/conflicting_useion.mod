NEURON {
    SUFFIX twice
    USEION ca READ eca WRITE ica
    USEION ca READ cai
}
ASSIGNED { v eca ica cai }
BREAKPOINT { ica = 0.001 * (v - eca) }
