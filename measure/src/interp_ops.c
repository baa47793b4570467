/* Out-of-line helper called by the MIX instruction. */
#include "interp.h"

int64_t interp_mix(int64_t acc, int64_t x)
{
    uint64_t h = (uint64_t)acc ^ ((uint64_t)x + 0x9E3779B97F4A7C15ULL + ((uint64_t)acc << 6) +
                                  ((uint64_t)acc >> 2));
    return (int64_t)h;
}
