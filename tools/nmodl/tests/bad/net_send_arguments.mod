NEURON {
    POINT_PROCESS selfevent
    NONSPECIFIC_CURRENT i
}
ASSIGNED { v i }
STATE { g }
BREAKPOINT { i = g * v }
NET_RECEIVE (w) {
    g = g + w
    net_send(1)
}
