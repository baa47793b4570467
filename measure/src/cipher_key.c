/* Key set-up of the block cipher. */
#include "bench.h"
#include "cipher.h"

uint32_t cipher_key[4];

void cipher_key_init(uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < 4; i++)
        cipher_key[i] = (uint32_t)esz_splitmix64(&s);
}
