/* spin N: a loop of N steps of integer arithmetic, the work of a benchmark whose
 * size is its argument (benchmarks/bench_run_drift.py). Prints nothing. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: spin N\n");
        return 2;
    }
    long n = atol(argv[1]);
    volatile unsigned long x = 1;
    for (long i = 0; i < n; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    return x == 42 ? 1 : 0;
}
