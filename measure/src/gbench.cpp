// Google Benchmark harness of the FFT and block-cipher programs (their objects are
// compiled with -DBENCH=fft and -DBENCH=cipher and linked in). One benchmark
// iteration is one iteration of the program (a fixed amount of work).
#include <benchmark/benchmark.h>

#include <cstdint>

extern "C" {
void fft_setup(std::uint64_t seed);
void fft_work(void);
void cipher_setup(std::uint64_t seed);
void cipher_work(void);
}

#ifndef INPUT_SEED
#define INPUT_SEED 1
#endif

static void BM_FFT(benchmark::State &state)
{
    fft_setup(INPUT_SEED);
    for (auto _ : state)
        fft_work();
}
BENCHMARK(BM_FFT)->Unit(benchmark::kMillisecond);

static void BM_Cipher(benchmark::State &state)
{
    cipher_setup(INPUT_SEED);
    for (auto _ : state)
        cipher_work();
}
BENCHMARK(BM_Cipher)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
