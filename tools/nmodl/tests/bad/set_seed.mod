NEURON { ARTIFICIAL_CELL seeded }
ASSIGNED { x }
INITIAL {
    set_seed(5)
    x = scop_random()
}
NET_RECEIVE (w) {
    net_event(t)
}
