NEURON { SUFFIX ssu }
STATE { x y }
INITIAL {
    SOLVE k STEADYSTATE sparse
}
KINETIC k { ~ x <-> y (1, 2) }
