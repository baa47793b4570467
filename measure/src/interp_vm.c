/* The dispatch loop of the interpreter. */
#include "interp.h"

uint64_t interp_instructions = 0;

int64_t interp_run(int32_t (*code)[4], int64_t *r)
{
    uint64_t count = 0;
    int pc = 0;
    for (;;) {
        const int32_t *in = code[pc++];
        count++;
        switch (in[0]) {
        case OP_HALT:
            interp_instructions += count;
            return r[in[1]];
        case OP_LOADI: r[in[1]] = in[2]; break;
        case OP_MOV: r[in[1]] = r[in[2]]; break;
        case OP_ADD: r[in[1]] = r[in[2]] + r[in[3]]; break;
        case OP_ADDI: r[in[1]] = r[in[2]] + in[3]; break;
        case OP_SUB: r[in[1]] = r[in[2]] - r[in[3]]; break;
        case OP_ANDI: r[in[1]] = r[in[2]] & in[3]; break;
        case OP_SHRI: r[in[1]] = r[in[2]] >> in[3]; break;
        case OP_JZ: if (r[in[1]] == 0) pc = in[2]; break;
        case OP_JNZ: if (r[in[1]] != 0) pc = in[2]; break;
        case OP_JMP: pc = in[1]; break;
        case OP_MIX: r[in[1]] = interp_mix(r[in[1]], r[in[2]]); break;
        default:
            interp_instructions += count;
            return -1;
        }
    }
}
