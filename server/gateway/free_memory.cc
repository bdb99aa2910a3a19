#include "server/gateway/free_memory.h"

#include <chrono>

#if defined(HBEMU_WITH_MIMALLOC)
#include <mimalloc.h>
#elif defined(__GLIBC__)
#include <malloc.h>

#include "server/gateway/paced_task.h"
#endif

namespace hbemu::server {

void ConfigureAllocator() {
#if !defined(HBEMU_WITH_MIMALLOC) && defined(__GLIBC__)
  // Setting either turns off glibc's dynamic adjustment of both.
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThresholdBytes));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(kTrimThresholdBytes));
#endif
}

#if defined(__GLIBC__) && !defined(HBEMU_WITH_MIMALLOC)
namespace {

// malloc_trim(0) walks every free chunk of every arena under that arena's lock, whether or not
// there is anything to return: 13-20 ms on a heap of 480 MB of small blocks over 8 arenas (86 ms
// the first time), during which every call thread allocating from those arenas waits. After
// every large call, a stream of them kept the arenas locked much of the time.
constexpr std::chrono::milliseconds kMinTrimInterval{250};

PacedTask& Trimmer() {
  // Never destroyed: call threads may still ask for a trim while the process exits.
  static PacedTask* const trimmer = new PacedTask([] { malloc_trim(0); }, kMinTrimInterval);
  return *trimmer;
}

}  // namespace
#endif

void ReturnFreeMemory() {
#if defined(HBEMU_WITH_MIMALLOC)
  mi_collect(true);
#elif defined(__GLIBC__)
  Trimmer().Request();
#endif
}

}  // namespace hbemu::server
