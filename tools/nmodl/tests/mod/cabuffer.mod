TITLE cabuffer: calcium entry with second-order removal, by derivimplicit (nonlinear)
: A test of METHOD derivimplicit on an ODE nonlinear in its state: NMODL's SymPy solver
: gives a Newton iteration, NEURON iterates its own.

NEURON {
    SUFFIX cabuffer
    USEION ca READ ica WRITE cai
    RANGE depth, kr, cainf
}

UNITS {
    (mM) = (milli/liter)
    (um) = (micron)
    (mA) = (milliamp)
    FARADAY = (faraday) (coulombs)
}

PARAMETER {
    depth = 0.1 (um)
    kr = 50 (/mM-ms)
    cainf = 5e-5 (mM)
}

ASSIGNED { ica (mA/cm2) }

STATE { cai (mM) }

BREAKPOINT { SOLVE entry METHOD derivimplicit }

DERIVATIVE entry {
    cai' = -(10000) * ica / (2 * FARADAY * depth) - kr * (cai * cai - cainf * cainf)
}
