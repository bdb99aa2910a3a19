#include "server/gateway/free_memory.h"

#if defined(HBEMU_WITH_MIMALLOC)
#include <mimalloc.h>
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

namespace hbemu::server {

void ConfigureAllocator() {
#if !defined(HBEMU_WITH_MIMALLOC) && defined(__GLIBC__)
  // Setting either turns off glibc's dynamic adjustment of both.
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThresholdBytes));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(kTrimThresholdBytes));
#endif
}

void ReturnFreeMemory() {
#if defined(HBEMU_WITH_MIMALLOC)
  mi_collect(true);
#elif defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace hbemu::server
