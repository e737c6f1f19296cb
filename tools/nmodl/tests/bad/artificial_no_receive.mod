NEURON {
    ARTIFICIAL_CELL silent
    RANGE x
}
PARAMETER { x = 1 }
