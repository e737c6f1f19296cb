TITLE noisystim: a spike train with NetStim's noise, from NMODL's random functions
COMMENT
An artificial cell that fires `number` spikes from `start`, `interval` ms apart on
average: with noise 0 a regular train, with noise 1 a Poisson train, in between a fixed
part (1 - noise) interval plus an exponential part of mean noise interval (NEURON's
NetStim rule, written with exprand instead of NetStim's VERBATIM code). Each spike also
draws `jitter` from normrand(0, sd) and a uniform `u` from scop_random(), so that all
three random functions are exercised; count counts the spikes.
ENDCOMMENT

NEURON {
    ARTIFICIAL_CELL noisystim
    RANGE interval, number, start, noise, sd, count, jitter, u
}

PARAMETER {
    interval = 10 (ms)
    number = 10
    start = 5 (ms)
    noise = 1
    sd = 2
}

ASSIGNED {
    count
    jitter
    u
}

INITIAL {
    count = 0
    jitter = 0
    u = 0
    if (number > 0) {
        net_send(start + invl(interval) - interval*(1 - noise), 1)
    }
}

NET_RECEIVE (w) {
    if (flag == 1) {
        count = count + 1
        jitter = normrand(0, sd)
        u = scop_random()
        net_event(t)
        if (count < number) {
            net_send(invl(interval), 1)
        }
    }
}

FUNCTION invl(mean (ms)) (ms) {
    if (noise == 0) {
        invl = mean
    } else {
        invl = (1 - noise)*mean + noise*mean*exprand(1)
    }
}
