/* Hash-table benchmark: one iteration clears a 65536-slot table, inserts
 * HT_INSERTS keys and looks up twice as many (half of them present). Inner work
 * unit: one insert or lookup (counted in hashtable_table.c). */
#include "bench.h"
#include "hashtable.h"

#define HT_INSERTS_BASE 45000
CHECK_UNITS(HT_INSERTS_BASE);
#define HT_INSERTS WORK_UNITS(HT_INSERTS_BASE)

static uint64_t found_sum;

void hashtable_setup(uint64_t seed) { ht_keys_init(seed); }

void hashtable_work(void)
{
    ht_clear();
    for (uint32_t i = 0; i < HT_INSERTS; i++)
        ht_insert(ht_key(i), i);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < 2 * HT_INSERTS; i++) {
        uint64_t v;
        if (ht_lookup(ht_key(i), &v))
            sum += v;
    }
    found_sum += sum;
}

uint64_t hashtable_units(void) { return ht_operations; }

uint64_t hashtable_checksum(void) { return found_sum; }
