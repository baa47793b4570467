/* The butterfly stages of the FFT. */
#include "fft.h"

uint64_t fft_transforms = 0;

static void fft_stage(double *re, double *im, int n, int len, double sign)
{
    int half = len / 2, step = n / len;
    for (int i = 0; i < n; i += len) {
        for (int j = 0; j < half; j++) {
            double wr = fft_cos[j * step], wi = sign * fft_sin[j * step];
            int a = i + j, b = i + j + half;
            double xr = re[b] * wr - im[b] * wi;
            double xi = re[b] * wi + im[b] * wr;
            re[b] = re[a] - xr;
            im[b] = im[a] - xi;
            re[a] += xr;
            im[a] += xi;
        }
    }
}

void fft_transform(double *re, double *im, int n, int inverse)
{
    fft_bitrev(re, im, n);
    for (int len = 2; len <= n; len <<= 1)
        fft_stage(re, im, n, len, inverse ? -1.0 : 1.0);
    if (inverse)
        fft_scale(re, im, n);
    fft_transforms++;
}
