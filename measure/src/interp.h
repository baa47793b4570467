/* A small register bytecode interpreter, split over interp_*.c. */
#ifndef ESIZE_INTERP_H
#define ESIZE_INTERP_H
#include <stdint.h>

enum {
    OP_HALT, OP_LOADI, OP_MOV, OP_ADD, OP_ADDI, OP_SUB, OP_ANDI, OP_SHRI,
    OP_JZ, OP_JNZ, OP_JMP, OP_MIX
};

#define INTERP_REGS 8
#define INTERP_CODE 64

extern int32_t interp_code[INTERP_CODE][4];
extern uint64_t interp_instructions;

int interp_assemble(int32_t limit);
int64_t interp_run(int32_t (*code)[4], int64_t *regs);
int64_t interp_mix(int64_t acc, int64_t x);
#endif
