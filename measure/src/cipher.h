/* XTEA block cipher in CBC mode, split over several objects (cipher_*.c). */
#ifndef ESIZE_CIPHER_H
#define ESIZE_CIPHER_H
#include <stdint.h>

#define CIPHER_BUFFER_BLOCKS 1024

extern uint32_t cipher_key[4];
extern uint64_t cipher_blocks;

void cipher_key_init(uint64_t seed);
void cipher_encipher(uint32_t v[2], const uint32_t key[4]);
void cipher_buffer_init(uint32_t (*buf)[2], int blocks, uint64_t seed);
uint64_t cipher_digest(uint32_t (*buf)[2], int blocks);
#endif
