// Handing memory the process no longer uses back to the system, after a large call or a burst of
// closed scanners, whichever allocator the build links.

#pragma once

#include <cstddef>

namespace hbemu::server {

// glibc raises its mmap threshold after the first large block is freed (up to 32 MiB) and its
// trim threshold to twice that, so later large blocks come from the threads' arenas, and buffers
// grown there by doubling and freed by another thread leave memory that malloc_trim does not
// return: 30 connections that each sent and read 7 MB held 134-261 MiB of RSS after every buffer
// was freed. Fixed thresholds keep blocks of kMmapThresholdBytes and more in their own mappings,
// returned on free, and arena tops at most kTrimThresholdBytes (28 MiB for the same burst).
// Called once at start, before any thread; nothing under mimalloc (the static build's allocator),
// which returns freed pages by itself.
void ConfigureAllocator();

// Large blocks of at least this size get their own mapping (glibc builds).
inline constexpr std::size_t kMmapThresholdBytes = 1 << 20;
// Free space above this at the top of an arena is returned at once (glibc builds).
inline constexpr std::size_t kTrimThresholdBytes = 2 << 20;

// This trims every glibc arena, at most every 250 ms across the process (a request within that
// time is folded into one trim at its end: paced_task.h), or forces mimalloc to collect the
// calling thread's heap and the segments other threads left (the rest it returns by itself after
// its decommit delay, 25 ms; it touches that thread's heap only, so it runs on every call).
void ReturnFreeMemory();

}  // namespace hbemu::server
