NEURON { SUFFIX rk }
STATE { x }
BREAKPOINT {
    SOLVE s METHOD runge
}
DERIVATIVE s { x' = -x }
