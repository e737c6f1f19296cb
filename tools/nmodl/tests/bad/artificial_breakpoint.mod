NEURON {
    ARTIFICIAL_CELL leaky
    RANGE m
}
STATE { m }
INITIAL { m = 0 }
BREAKPOINT {
    SOLVE decay METHOD cnexp
}
DERIVATIVE decay { m' = -m }
NET_RECEIVE (w) {
    m = m + w
}
