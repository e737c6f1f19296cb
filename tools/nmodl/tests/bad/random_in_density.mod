NEURON {
    SUFFIX noisy
    NONSPECIFIC_CURRENT i
}
ASSIGNED { v (mV) i (mA/cm2) }
BREAKPOINT {
    i = 1e-3*normrand(0, 1)
}
