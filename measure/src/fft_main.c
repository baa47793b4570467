/* FFT benchmark: one iteration is FFT_PAIRS forward + inverse transforms of a
 * 256-point complex signal. Inner work unit: one transform (counted in
 * fft_transform). */
#include <string.h>

#include "bench.h"
#include "fft.h"

#define FFT_PAIRS_BASE 800
CHECK_UNITS(FFT_PAIRS_BASE);
#define FFT_PAIRS WORK_UNITS(FFT_PAIRS_BASE)

static double re[FFT_N], im[FFT_N];

void fft_setup(uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < FFT_N; i++) {
        re[i] = (double)(esz_splitmix64(&s) >> 11) / 9007199254740992.0 - 0.5;
        im[i] = (double)(esz_splitmix64(&s) >> 11) / 9007199254740992.0 - 0.5;
    }
    fft_twiddle_init();
}

void fft_work(void)
{
    for (long k = 0; k < FFT_PAIRS; k++) {
        fft_transform(re, im, FFT_N, 0);
        fft_transform(re, im, FFT_N, 1);
    }
}

uint64_t fft_units(void) { return fft_transforms; }

uint64_t fft_checksum(void)
{
    uint64_t h = 0;
    for (int i = 0; i < FFT_N; i++) {
        double x = re[i] * 1e6, y = im[i] * 1e6;
        h = h * 1000003u + (uint64_t)(int64_t)x;
        h = h * 1000003u + (uint64_t)(int64_t)y;
    }
    return h;
}
