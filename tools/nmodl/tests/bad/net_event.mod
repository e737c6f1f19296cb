NEURON {
    POINT_PROCESS spiker
    NONSPECIFIC_CURRENT i
}
ASSIGNED { v i }
BREAKPOINT { i = 0 }
NET_RECEIVE (w) {
    net_event(t)
}
