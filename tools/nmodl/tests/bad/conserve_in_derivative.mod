NEURON { SUFFIX cd }
STATE { x y }
BREAKPOINT { SOLVE d METHOD derivimplicit }
DERIVATIVE d {
    x' = y - x
    CONSERVE x + y = 1
}
