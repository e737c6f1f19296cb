TITLE pulsesyn: a synapse whose transmitter pulse ends by a self-event
COMMENT
Two-state kinetic synapse with a transmitter pulse of Cdur ms after each event, in the
scheme of Destexhe, Mainen and Sejnowski (1994) as NEURON's examples write it: an event
opens the synapse (if it is closed) and sends itself an event Cdur ms later with
flag = nspike; only the self-event of the connection's last event closes it again. Per
connection state in NET_RECEIVE's arguments (on, nspike, r0, t0), net_send, flag and
state_discontinuity: what published AMPA/GABA-A synapses of this kind use. nsent and
nclosed count the self-events sent and those that closed the synapse.
ENDCOMMENT

NEURON {
    POINT_PROCESS pulsesyn
    RANGE Cdur, Alpha, Beta, e, g, i, Ron, Roff, synon, nsent, nclosed
    NONSPECIFIC_CURRENT i
}
PARAMETER {
    Cdur = 1 (ms)
    Alpha = 1.1 (/ms)
    Beta = 0.19 (/ms)
    e = 0 (mV)
}
ASSIGNED { v (mV) i (nA) g (uS) Rinf Rtau (ms) synon nsent nclosed }
STATE { Ron Roff }
INITIAL {
    Rinf = Alpha / (Alpha + Beta)
    Rtau = 1 / (Alpha + Beta)
    synon = 0
    nsent = 0
    nclosed = 0
}
BREAKPOINT {
    SOLVE release METHOD cnexp
    g = Ron + Roff
    i = g * (v - e)
}
DERIVATIVE release {
    Ron' = (synon * Rinf - Ron) / Rtau
    Roff' = -Beta * Roff
}
NET_RECEIVE(weight (uS), on, nspike, r0, t0 (ms)) {
    INITIAL {
        on = 0
        nspike = 1
        r0 = 0
        t0 = t
    }
    if (flag == 0) {
        nspike = nspike + 1
        if (!on) {
            r0 = r0 * exp(-Beta * (t - t0))
            t0 = t
            on = 1
            synon = synon + weight
            state_discontinuity(Ron, Ron + r0)
            state_discontinuity(Roff, Roff - r0)
        }
        net_send(Cdur, nspike)
        nsent = nsent + 1
    }
    if (flag == nspike) {
        r0 = weight * Rinf + (r0 - weight * Rinf) * exp(-(t - t0) / Rtau)
        t0 = t
        synon = synon - weight
        state_discontinuity(Ron, Ron - r0)
        state_discontinuity(Roff, Roff + r0)
        on = 0
        nclosed = nclosed + 1
    }
}
