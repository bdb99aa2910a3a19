#include "server/gateway/free_memory.h"

#if defined(HBEMU_WITH_MIMALLOC)
#include <mimalloc.h>
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

namespace hbemu::server {

void ReturnFreeMemory() {
#if defined(HBEMU_WITH_MIMALLOC)
  mi_collect(true);
#elif defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace hbemu::server
