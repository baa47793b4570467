/* Interpreter benchmark: one iteration interprets a bytecode program that sums the
 * Collatz stopping times of 1..INTERP_LIMIT. Inner work unit: one interpreted
 * instruction (counted by the dispatch loop). EXTRA_PERMILLE is not supported:
 * the instruction count is not a multiple of a round number. */
#include "bench.h"
#include "interp.h"

#if EXTRA_PERMILLE != 0
#error "interp has no known-effect variant"
#endif

#define INTERP_LIMIT 2000

static int64_t regs[INTERP_REGS];
static uint64_t digest;

void interp_setup(uint64_t seed)
{
    (void)seed; /* the program is fixed */
    interp_assemble(INTERP_LIMIT);
}

void interp_work(void)
{
    for (int i = 0; i < INTERP_REGS; i++)
        regs[i] = 0;
    digest = digest * 31u + (uint64_t)interp_run(interp_code, regs);
}

uint64_t interp_units(void) { return interp_instructions; }

uint64_t interp_checksum(void) { return digest; }
