NEURON {
    POINT_PROCESS selfevent
    NONSPECIFIC_CURRENT i
}
ASSIGNED { v i }
STATE { g }
INITIAL {
    g = 0
    net_send(0, 1)
}
BREAKPOINT { i = g * v }
NET_RECEIVE (w) {
    g = g + w
}
