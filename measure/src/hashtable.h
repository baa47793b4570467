/* Open-addressing hash table with linear probing, split over hashtable_*.c. */
#ifndef ESIZE_HASHTABLE_H
#define ESIZE_HASHTABLE_H
#include <stdint.h>

#define HT_BITS 16
#define HT_SLOTS (1u << HT_BITS)

extern uint64_t ht_operations;

void ht_clear(void);
void ht_insert(uint64_t key, uint64_t value);
int ht_lookup(uint64_t key, uint64_t *value);
uint64_t ht_hash(uint64_t key);
void ht_keys_init(uint64_t seed);
uint64_t ht_key(uint32_t i);
#endif
