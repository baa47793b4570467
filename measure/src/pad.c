/* Layout padding, sized at random per build (from the build's recorded seed):
 * TEXT_PAD bytes of code (int3 filler) and DATA_PAD bytes of initialised data,
 * each placed where this object lands in the (shuffled) link order, so that they
 * shift the code and data of every object linked after it. */
#ifndef TEXT_PAD
#define TEXT_PAD 0
#endif
#ifndef DATA_PAD
#define DATA_PAD 0
#endif
#define ESZ_STR2(x) #x
#define ESZ_STR(x) ESZ_STR2(x)

#if TEXT_PAD > 0
__asm__(".pushsection .text\n"
        ".globl esize_pad_text\n"
        "esize_pad_text:\n"
        ".skip " ESZ_STR(TEXT_PAD) ", 0xcc\n"
        ".popsection\n");
#endif
#if DATA_PAD > 0
__asm__(".pushsection .data\n"
        ".globl esize_pad_data\n"
        "esize_pad_data:\n"
        ".skip " ESZ_STR(DATA_PAD) ", 0\n"
        ".popsection\n");
#endif

/* an object file must not be empty of declarations (ISO C) */
typedef int esize_pad_unused;
