: A missing operand on line 9.
NEURON {
    SUFFIX broken
    RANGE g
}
PARAMETER { g = 0.001 }
ASSIGNED { v i }
BREAKPOINT {
    i = g * (v - )
}
