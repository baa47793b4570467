/* Block-cipher benchmark: one iteration encrypts CIPHER_BLOCKS 64-bit blocks in
 * CBC mode, cycling over an 8 KiB buffer. Inner work unit: one block (counted in
 * cipher_encipher). */
#include "bench.h"
#include "cipher.h"

#define CIPHER_BLOCKS_BASE 32000
CHECK_UNITS(CIPHER_BLOCKS_BASE);
#define CIPHER_BLOCKS WORK_UNITS(CIPHER_BLOCKS_BASE)

static uint32_t buf[CIPHER_BUFFER_BLOCKS][2];
static uint32_t iv[2];

void cipher_setup(uint64_t seed)
{
    cipher_key_init(seed);
    cipher_buffer_init(buf, CIPHER_BUFFER_BLOCKS, seed ^ 0x5DEECE66DULL);
    iv[0] = 0x01234567u;
    iv[1] = 0x89abcdefu;
}

void cipher_work(void)
{
    uint32_t c0 = iv[0], c1 = iv[1];
    for (long k = 0; k < CIPHER_BLOCKS; k++) {
        uint32_t *b = buf[k % CIPHER_BUFFER_BLOCKS];
        uint32_t v[2] = {b[0] ^ c0, b[1] ^ c1};
        cipher_encipher(v, cipher_key);
        b[0] = c0 = v[0];
        b[1] = c1 = v[1];
    }
    iv[0] = c0;
    iv[1] = c1;
}

uint64_t cipher_units(void) { return cipher_blocks; }

uint64_t cipher_checksum(void) { return cipher_digest(buf, CIPHER_BUFFER_BLOCKS); }
