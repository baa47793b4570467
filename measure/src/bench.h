/* Common interface of the measured programs.
 *
 * Every program is compiled with -DBENCH=<name>; its global functions are named
 * <name>_setup, <name>_work, ... so that several programs can be linked into one
 * binary (the Google Benchmark harness does that).
 *
 * EXTRA_PERMILLE (default 0) adds exactly EXTRA_PERMILLE / 1000 of the inner work
 * of one iteration: the number of inner work units per iteration is
 * WORK_UNITS(base) = base + base * EXTRA_PERMILLE / 1000, and every program checks
 * at compile time that this is a whole number. The known effect is therefore set by
 * construction (a count), not calibrated by timing.
 */
#ifndef ESIZE_BENCH_H
#define ESIZE_BENCH_H

#include <stdint.h>

#ifndef EXTRA_PERMILLE
#define EXTRA_PERMILLE 0
#endif

#ifndef INPUT_SEED
#define INPUT_SEED 1
#endif

#define ESZ_CAT2(a, b) a##_##b
#define ESZ_CAT(a, b) ESZ_CAT2(a, b)
#define BENCH_SYM(name) ESZ_CAT(BENCH, name)

#define WORK_UNITS(base) ((base) + (base) * (EXTRA_PERMILLE) / 1000)
#define CHECK_UNITS(base)                                                        \
    _Static_assert(((base) * (EXTRA_PERMILLE)) % 1000 == 0,                       \
                   "EXTRA_PERMILLE must give a whole number of extra work units")

#ifdef __cplusplus
extern "C" {
#endif

/* Prepare the fixed input of one iteration from the input seed. */
void BENCH_SYM(setup)(uint64_t seed);
/* One iteration: a fixed amount of work. */
void BENCH_SYM(work)(void);
/* Inner work units done so far, counted where the work is done. */
uint64_t BENCH_SYM(units)(void);
/* A digest of the program state, so that the work cannot be optimised away. */
uint64_t BENCH_SYM(checksum)(void);

#ifdef __cplusplus
}
#endif

/* splitmix64: the programs' only pseudo-random generator (input data only). */
static inline uint64_t esz_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#endif
