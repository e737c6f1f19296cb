"""hinesbatch-nmodl: NMODL (.mod) mechanisms compiled to Kokkos device functions."""

VERSION = "0.1"
