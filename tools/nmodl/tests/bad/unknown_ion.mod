NEURON {
    SUFFIX hcnchan
    USEION hcn READ ehcn WRITE ihcn
    RANGE g
}
PARAMETER { g = 0.001 }
ASSIGNED { v ehcn ihcn }
BREAKPOINT { ihcn = g * (v - ehcn) }
