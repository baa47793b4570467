/* Timing harness shared by all programs.
 *
 *   ./bench N        run N iterations; print one line "t <ns> <cpu ns>" per
 *                    iteration (after the last one, so that output does not
 *                    disturb the timing), then "units <per iteration>" and
 *                    "checksum <hex>"
 *   ./bench --count  run one iteration and print "units" and "checksum" only
 *
 * Each iteration is timed in-process with clock_gettime(CLOCK_MONOTONIC) (the
 * time) and CLOCK_PROCESS_CPUTIME_ID (the CPU time the process got meanwhile: on a
 * shared machine it tells waiting for a CPU apart from running slower).
 * Exit status 2 on a bad argument.
 */
#define _POSIX_C_SOURCE 199309L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

static uint64_t now_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--count") == 0) {
        BENCH_SYM(setup)(INPUT_SEED);
        uint64_t before = BENCH_SYM(units)();
        BENCH_SYM(work)();
        printf("units %" PRIu64 "\nchecksum %016" PRIx64 "\n",
               BENCH_SYM(units)() - before, BENCH_SYM(checksum)());
        return 0;
    }
    char *end = NULL;
    errno = 0;
    long n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
    if (argc != 2 || errno != 0 || end == argv[1] || *end != '\0' || n < 1 || n > 1000000) {
        fprintf(stderr, "usage: %s ITERATIONS (1..1000000) | --count\n", argv[0]);
        return 2;
    }
    uint64_t *times = malloc((size_t)n * sizeof *times);
    uint64_t *cpu = malloc((size_t)n * sizeof *cpu);
    if (times == NULL || cpu == NULL) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    BENCH_SYM(setup)(INPUT_SEED);
    uint64_t before = BENCH_SYM(units)();
    for (long i = 0; i < n; i++) {
        uint64_t c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        uint64_t t0 = now_ns(CLOCK_MONOTONIC);
        BENCH_SYM(work)();
        uint64_t t1 = now_ns(CLOCK_MONOTONIC);
        uint64_t c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
        times[i] = t1 - t0;
        cpu[i] = c1 - c0;
    }
    uint64_t units = (BENCH_SYM(units)() - before) / (uint64_t)n;
    for (long i = 0; i < n; i++)
        printf("t %" PRIu64 " %" PRIu64 "\n", times[i], cpu[i]);
    printf("units %" PRIu64 "\nchecksum %016" PRIx64 "\n", units, BENCH_SYM(checksum)());
    free(times);
    free(cpu);
    return 0;
}
