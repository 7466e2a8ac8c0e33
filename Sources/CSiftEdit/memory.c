#include "CSiftEdit.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void sift_memory_keep_chunks(void) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    /* A thread's arena keeps this much free memory at its top when it
       trims: without it, the reading thread's arena gave each freed chunk
       back to the kernel and faulted the next one in again. */
    mallopt(M_TOP_PAD, 16 << 20);
#endif
}
