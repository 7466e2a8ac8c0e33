#include "CSiftEdit.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

void sift_memory_keep_chunks(void) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}
