NEURON { SUFFIX arrk RANGE k }
PARAMETER { k = 1 }
ASSIGNED { a[3] }
INITIAL {
    a[0] = 0
    a[k] = 2
}
