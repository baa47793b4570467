/* Twiddle factors and the scaling of the inverse transform. */
#include <math.h>

#include "fft.h"

double fft_cos[FFT_N / 2];
double fft_sin[FFT_N / 2];

void fft_twiddle_init(void)
{
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < FFT_N / 2; k++) {
        fft_cos[k] = cos(2.0 * pi * k / FFT_N);
        fft_sin[k] = -sin(2.0 * pi * k / FFT_N);
    }
}

void fft_scale(double *re, double *im, int n)
{
    double f = 1.0 / n;
    for (int i = 0; i < n; i++) {
        re[i] *= f;
        im[i] *= f;
    }
}
