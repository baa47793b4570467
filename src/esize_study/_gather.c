/* The inner loop of the study's approximate bootstraps (esize_study._kernels).
 *
 * out[i, r] = sum over j < full of table[i, codes[i, r, j]], added left to right,
 * plus rtable[i, codes[i, r, full] % mr] when mr > 0. Complex tables are pairs of
 * doubles (real, imaginary) added componentwise, as numpy adds complex numbers.
 * Compiled without -ffast-math, so the additions happen in exactly this order and
 * the sums are bit-identical to the numpy route of esize_study._kernels.
 */
#include <stdint.h>

#define REAL_LOOP(NAME, CODE)                                                        \
    void NAME(const double *table, const CODE *codes, int64_t c, int64_t R,           \
              int64_t ncodes, int64_t m, int64_t full, const double *rtable,          \
              int64_t mr, double *out)                                               \
    {                                                                                \
        for (int64_t i = 0; i < c; i++) {                                            \
            const double *t = table + i * m;                                         \
            for (int64_t r = 0; r < R; r++) {                                        \
                const CODE *k = codes + (i * R + r) * ncodes;                        \
                double s = t[k[0]];                                                  \
                for (int64_t j = 1; j < full; j++)                                   \
                    s += t[k[j]];                                                    \
                if (mr > 0)                                                          \
                    s += rtable[i * mr + (int64_t)(k[full] % (uint64_t)mr)];         \
                out[i * R + r] = s;                                                  \
            }                                                                        \
        }                                                                            \
    }

#define COMPLEX_LOOP(NAME, CODE)                                                     \
    void NAME(const double *table, const CODE *codes, int64_t c, int64_t R,           \
              int64_t ncodes, int64_t m, int64_t full, const double *rtable,          \
              int64_t mr, double *out)                                               \
    {                                                                                \
        for (int64_t i = 0; i < c; i++) {                                            \
            const double *t = table + 2 * i * m;                                     \
            for (int64_t r = 0; r < R; r++) {                                        \
                const CODE *k = codes + (i * R + r) * ncodes;                        \
                double re = t[2 * (int64_t)k[0]], im = t[2 * (int64_t)k[0] + 1];     \
                for (int64_t j = 1; j < full; j++) {                                 \
                    re += t[2 * (int64_t)k[j]];                                      \
                    im += t[2 * (int64_t)k[j] + 1];                                  \
                }                                                                    \
                if (mr > 0) {                                                        \
                    int64_t x = i * mr + (int64_t)(k[full] % (uint64_t)mr);          \
                    re += rtable[2 * x];                                             \
                    im += rtable[2 * x + 1];                                         \
                }                                                                    \
                out[2 * (i * R + r)] = re;                                           \
                out[2 * (i * R + r) + 1] = im;                                       \
            }                                                                        \
        }                                                                            \
    }

REAL_LOOP(gather_f64_u16, uint16_t)
REAL_LOOP(gather_f64_u32, uint32_t)
COMPLEX_LOOP(gather_c128_u16, uint16_t)
COMPLEX_LOOP(gather_c128_u32, uint32_t)
