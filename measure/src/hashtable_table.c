/* The table: insert and lookup with linear probing. */
#include <string.h>

#include "hashtable.h"

uint64_t ht_operations = 0;

static uint64_t keys[HT_SLOTS];
static uint64_t values[HT_SLOTS];

void ht_clear(void)
{
    memset(keys, 0, sizeof keys); /* key 0 marks an empty slot */
}

void ht_insert(uint64_t key, uint64_t value)
{
    uint32_t i = (uint32_t)ht_hash(key) & (HT_SLOTS - 1);
    while (keys[i] != 0 && keys[i] != key)
        i = (i + 1) & (HT_SLOTS - 1);
    keys[i] = key;
    values[i] = value;
    ht_operations++;
}

int ht_lookup(uint64_t key, uint64_t *value)
{
    uint32_t i = (uint32_t)ht_hash(key) & (HT_SLOTS - 1);
    ht_operations++;
    while (keys[i] != 0) {
        if (keys[i] == key) {
            *value = values[i];
            return 1;
        }
        i = (i + 1) & (HT_SLOTS - 1);
    }
    return 0;
}
