/* Plaintext buffer and digest of the block cipher. */
#include "bench.h"
#include "cipher.h"

void cipher_buffer_init(uint32_t (*buf)[2], int blocks, uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < blocks; i++) {
        uint64_t x = esz_splitmix64(&s);
        buf[i][0] = (uint32_t)x;
        buf[i][1] = (uint32_t)(x >> 32);
    }
}

uint64_t cipher_digest(uint32_t (*buf)[2], int blocks)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < blocks; i++) {
        h = (h ^ buf[i][0]) * 1099511628211ULL;
        h = (h ^ buf[i][1]) * 1099511628211ULL;
    }
    return h;
}
