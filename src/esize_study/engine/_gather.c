/* The inner loop of the study's approximate bootstraps (esize_study.engine._kernels).
 *
 * out[i, r] = sum over j < full of table[i, codes[i, r, j]], added left to right,
 * plus rtable[i, codes[i, r, full] % mr] when mr > 0. Complex tables are pairs of
 * doubles (real, imaginary) added componentwise, as numpy adds complex numbers.
 * Compiled without -ffast-math, so the additions happen in exactly this order and
 * the sums are bit-identical to the numpy route of esize_study.engine._kernels.
 */
#include <stdint.h>

/* One loop per table type (W doubles per entry: 1 real, 2 complex) and code type. */
#define GATHER_LOOP(NAME, CODE, W)                                                   \
    void NAME(const double *table, const CODE *codes, int64_t c, int64_t R,           \
              int64_t ncodes, int64_t m, int64_t full, const double *rtable,          \
              int64_t mr, double *out)                                               \
    {                                                                                \
        for (int64_t i = 0; i < c; i++) {                                            \
            const double *t = table + W * i * m;                                     \
            for (int64_t r = 0; r < R; r++) {                                        \
                const CODE *k = codes + (i * R + r) * ncodes;                        \
                double s[W];                                                         \
                for (int d = 0; d < W; d++)                                          \
                    s[d] = t[W * (int64_t)k[0] + d];                                 \
                for (int64_t j = 1; j < full; j++)                                   \
                    for (int d = 0; d < W; d++)                                      \
                        s[d] += t[W * (int64_t)k[j] + d];                            \
                if (mr > 0) {                                                        \
                    int64_t x = i * mr + (int64_t)(k[full] % (uint64_t)mr);          \
                    for (int d = 0; d < W; d++)                                      \
                        s[d] += rtable[W * x + d];                                   \
                }                                                                    \
                for (int d = 0; d < W; d++)                                          \
                    out[W * (i * R + r) + d] = s[d];                                 \
            }                                                                        \
        }                                                                            \
    }

GATHER_LOOP(gather_f64_u16, uint16_t, 1)
GATHER_LOOP(gather_f64_u32, uint32_t, 1)
GATHER_LOOP(gather_c128_u16, uint16_t, 2)
GATHER_LOOP(gather_c128_u32, uint32_t, 2)
