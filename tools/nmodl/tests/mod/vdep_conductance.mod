: A leak whose conductance depends on v: di/dv is not g, so the compiler keeps NEURON's
: difference quotient (a current linear in v takes di/dv = g from NMODL's CONDUCTANCE hint).
NEURON {
  SUFFIX vdep
  NONSPECIFIC_CURRENT i
  RANGE gbar, g
}
UNITS {
  (mA) = (milliamp)
  (mV) = (millivolt)
  (S) = (siemens)
}
PARAMETER {
  gbar = 0.0005 (S/cm2)
  e = -70 (mV)
}
ASSIGNED {
  v (mV)
  i (mA/cm2)
  g (S/cm2)
}
BREAKPOINT {
  g = gbar*exp((v + 65)/20)
  i = g*(v - e)
}
