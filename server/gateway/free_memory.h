// Handing memory the process no longer uses back to the system, after a large call or a burst of
// closed scanners, whichever allocator the build links.

#pragma once

namespace hbemu::server {

// glibc raises its mmap threshold after the first large block is freed (up to 32 MiB), so later
// large blocks come from the heap and freeing them keeps the memory in the process (30
// connections that each sent and read 7 MB held 140-320 MB of RSS after every buffer was freed);
// mimalloc, the static build's allocator, keeps freed pages for reuse. This trims every glibc
// arena, at most every 250 ms across the process (a request within that time is folded into one
// trim at its end: paced_task.h), or forces mimalloc to collect the calling thread's heap and the
// segments other threads left (the rest it returns by itself after its decommit delay, 25 ms;
// it touches that thread's heap only, so it runs on every call).
void ReturnFreeMemory();

}  // namespace hbemu::server
