TITLE driftfire: an event-driven integrate-and-fire cell with a steady drive
COMMENT
An artificial cell (no membrane): its state m relaxes towards minf > 1 with time constant
tau, so that without input it crosses m = 1 every `period` ms. Its state is advanced
analytically from event to event. An input event adds its weight to m; at m >= 1 the cell
fires (net_event) and stays refractory for `refrac` ms, deaf to its inputs, then starts
again from m = 0. Exactly one flag-1 self-event is pending at any time: the next crossing,
moved (net_move) by each input, or the end of the refractory period. INITIAL's net_send,
net_move, net_event, flag, FUNCTIONs and a NetCon weight: what NEURON's own artificial
cells (IntervalFire, IntFire1) use. nfired counts the spikes, ninputs the inputs taken.
ENDCOMMENT

NEURON {
    ARTIFICIAL_CELL driftfire
    : every value of one cell RANGE: NEURON shares a non-RANGE ASSIGNED among all cells
    RANGE tau, period, refrac, m, minf, t0, refractory, nfired, ninputs
}
PARAMETER {
    tau = 8 (ms)
    period = 12 (ms)
    refrac = 2 (ms)
}
ASSIGNED {
    m
    minf
    t0 (ms)
    refractory
    nfired
    ninputs
}
INITIAL {
    minf = 1 / (1 - exp(-period / tau))
    m = 0
    t0 = t
    refractory = 0
    nfired = 0
    ninputs = 0
    net_send(crossing(), 1)
}
FUNCTION relaxed() {
    relaxed = minf + (m - minf) * exp(-(t - t0) / tau)
}
FUNCTION crossing() (ms) {
    crossing = tau * log((minf - m) / (minf - 1))
}
NET_RECEIVE (w) {
    if (flag == 1) {
        if (refractory == 1) {
            refractory = 0
            m = 0
            t0 = t
            net_send(crossing(), 1)
        } else {
            nfired = nfired + 1
            net_event(t)
            refractory = 1
            net_send(refrac, 1)
        }
    } else if (refractory == 0) {
        ninputs = ninputs + 1
        m = relaxed() + w
        t0 = t
        if (m >= 1) {
            nfired = nfired + 1
            net_event(t)
            refractory = 1
            net_move(t + refrac)
        } else {
            net_move(t + crossing())
        }
    }
}
