: cnexp on an ODE nonlinear in its state: compiled, with a warning on line 7.
NEURON { SUFFIX quadratic RANGE k }
PARAMETER { k = 0.1 }
STATE { x }
INITIAL { x = 1 }
BREAKPOINT { SOLVE s METHOD cnexp }
DERIVATIVE s { x' = -k * x * x }
