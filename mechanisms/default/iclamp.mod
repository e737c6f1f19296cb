TITLE IClamp: current step of amplitude amp from del for dur
: HinesBatch's statement of NEURON's IClamp (see LICENSE.md). The current is injected
: (ELECTRODE_CURRENT: positive depolarises).

NEURON {
    POINT_PROCESS IClamp
    RANGE del, dur, amp, i
    ELECTRODE_CURRENT i
}

UNITS { (nA) = (nanoamp) }

PARAMETER {
    del (ms)
    dur (ms) <0, 1e9>
    amp (nA)
}

ASSIGNED { i (nA) }

INITIAL { i = 0 }

BREAKPOINT {
    if (t >= del && t < del + dur) {
        i = amp
    } else {
        i = 0
    }
}
