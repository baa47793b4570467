/* The key stream: key i is a fixed pseudo-random non-zero 64-bit value. */
#include "bench.h"
#include "hashtable.h"

static uint64_t key_base;

void ht_keys_init(uint64_t seed)
{
    uint64_t s = seed;
    key_base = esz_splitmix64(&s);
}

uint64_t ht_key(uint32_t i)
{
    uint64_t s = key_base + (uint64_t)i * 0x9E3779B97F4A7C15ULL;
    return esz_splitmix64(&s) | 1u;
}
