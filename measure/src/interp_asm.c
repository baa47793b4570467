/* The bytecode program: for x = limit .. 1, count the Collatz steps of x into r5
 * and mix x's count into r7; the result is r7. */
#include "interp.h"

int32_t interp_code[INTERP_CODE][4];

static int emit(int pc, int32_t op, int32_t a, int32_t b, int32_t c)
{
    interp_code[pc][0] = op;
    interp_code[pc][1] = a;
    interp_code[pc][2] = b;
    interp_code[pc][3] = c;
    return pc + 1;
}

int interp_assemble(int32_t limit)
{
    int pc = 0;
    pc = emit(pc, OP_LOADI, 0, limit, 0);   /* 0: r0 = x = limit */
    pc = emit(pc, OP_LOADI, 6, 1, 0);       /* 1: r6 = 1 */
    pc = emit(pc, OP_LOADI, 7, 0, 0);       /* 2: r7 = digest */
    int outer = pc;
    pc = emit(pc, OP_MOV, 1, 0, 0);         /* 3: r1 = n = x */
    pc = emit(pc, OP_LOADI, 5, 0, 0);       /* 4: r5 = steps */
    int inner = pc;
    pc = emit(pc, OP_SUB, 2, 1, 6);         /* 5: r2 = n - 1 */
    int jz_done = pc;
    pc = emit(pc, OP_JZ, 2, 0, 0);          /* 6: if n == 1 goto done */
    pc = emit(pc, OP_ANDI, 3, 1, 1);        /* 7: r3 = n & 1 */
    int jz_even = pc;
    pc = emit(pc, OP_JZ, 3, 0, 0);          /* 8: if even goto even */
    pc = emit(pc, OP_ADD, 4, 1, 1);         /* 9: r4 = 2n */
    pc = emit(pc, OP_ADD, 1, 4, 1);         /* 10: n = 3n */
    pc = emit(pc, OP_ADDI, 1, 1, 1);        /* 11: n = 3n + 1 */
    int jmp_next = pc;
    pc = emit(pc, OP_JMP, 0, 0, 0);         /* 12: goto next */
    interp_code[jz_even][2] = pc;
    pc = emit(pc, OP_SHRI, 1, 1, 1);        /* 13: even: n >>= 1 */
    interp_code[jmp_next][1] = pc;
    pc = emit(pc, OP_ADDI, 5, 5, 1);        /* 14: next: steps++ */
    pc = emit(pc, OP_JMP, inner, 0, 0);     /* 15: loop */
    interp_code[jz_done][2] = pc;
    pc = emit(pc, OP_MIX, 7, 5, 0);         /* 16: done: r7 = mix(r7, steps) */
    pc = emit(pc, OP_SUB, 0, 0, 6);         /* 17: x-- */
    pc = emit(pc, OP_JNZ, 0, outer, 0);     /* 18: while x != 0 */
    pc = emit(pc, OP_HALT, 7, 0, 0);        /* 19: return r7 */
    return pc;
}
