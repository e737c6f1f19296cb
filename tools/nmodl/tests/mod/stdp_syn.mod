TITLE stdp_syn: NET_RECEIVE with per-NetCon state in its weight vector and an INITIAL
: there (a halved weight for an event within 5 ms of the previous one on the same NetCon)

NEURON {
    POINT_PROCESS stdpsyn
    RANGE tau, e, i, events
    NONSPECIFIC_CURRENT i
}
PARAMETER { tau = 2 (ms) e = 0 (mV) }
ASSIGNED { v i events }
STATE { g }
INITIAL { g = 0 events = 0 }
BREAKPOINT { SOLVE d METHOD cnexp  i = g * (v - e) }
DERIVATIVE d { g' = -g / tau }
NET_RECEIVE(w, wscale, tlast (ms)) {
    INITIAL { wscale = 1 tlast = -1e9 }
    if (t - tlast < 5) { wscale = wscale * 0.5 } else { wscale = 1 }
    g = g + w * wscale
    tlast = t
    events = events + 1
}
