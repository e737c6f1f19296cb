TITLE stdp_syn: NET_RECEIVE with per-NetCon state in its weight vector and an INITIAL
: there (a halved weight for an event within twin ms of the previous one on the same
: NetCon); tevent keeps the time NET_RECEIVE saw last (the event's own, in NEURON) and
: gap the time since the synapse's previous event of any NetCon

NEURON {
    POINT_PROCESS stdpsyn
    RANGE tau, e, i, events, twin, tevent, gap
    NONSPECIFIC_CURRENT i
}
PARAMETER { tau = 2 (ms) e = 0 (mV) twin = 5 (ms) }
ASSIGNED { v i events tevent (ms) gap (ms) }
STATE { g }
INITIAL { g = 0 events = 0 tevent = -1 }
BREAKPOINT { SOLVE d METHOD cnexp  i = g * (v - e) }
DERIVATIVE d { g' = -g / tau }
NET_RECEIVE(w, wscale, tlast (ms)) {
    INITIAL { wscale = 1 tlast = -1e9 }
    if (t - tlast < twin) { wscale = wscale * 0.5 } else { wscale = 1 }
    g = g + w * wscale
    tlast = t
    gap = t - tevent
    tevent = t
    events = events + 1
}
