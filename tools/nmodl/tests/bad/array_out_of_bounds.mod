NEURON { SUFFIX arrb }
DEFINE N 3
ASSIGNED { a[N] }
INITIAL {
    FROM i = 0 TO N {
        a[i] = i
    }
}
