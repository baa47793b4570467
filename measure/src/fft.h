/* Radix-2 complex FFT, split over several objects (fft_*.c). */
#ifndef ESIZE_FFT_H
#define ESIZE_FFT_H
#include <stdint.h>

#define FFT_N 256

extern double fft_cos[FFT_N / 2];
extern double fft_sin[FFT_N / 2];
extern uint64_t fft_transforms;

void fft_twiddle_init(void);
void fft_scale(double *re, double *im, int n);
void fft_bitrev(double *re, double *im, int n);
void fft_transform(double *re, double *im, int n, int inverse);
#endif
