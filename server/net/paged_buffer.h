// A connection's receive buffer in an anonymous mapping of its own.

#pragma once

#include <cstddef>
#include <cstdint>

namespace hbemu::server {

// Growing a buffer to a 100 MB message must not need the old and the new block at once: mremap
// moves the page-table entries instead of copying the bytes, whichever allocator the build links
// (glibc's realloc does so for its large blocks, mimalloc's, in the static build, copies: a 90 MB
// call then peaked at old + new). Room not yet written costs no memory.
class PagedBuffer {
 public:
  PagedBuffer() = default;
  ~PagedBuffer();
  PagedBuffer(const PagedBuffer&) = delete;
  PagedBuffer& operator=(const PagedBuffer&) = delete;

  uint8_t* data() const { return data_; }
  size_t capacity() const { return capacity_; }

  // Keeps the first min(old, new) capacity bytes; 0 frees everything. Throws std::bad_alloc when
  // the system refuses the memory.
  void Resize(size_t capacity);

 private:
  uint8_t* data_ = nullptr;
  size_t capacity_ = 0;
  size_t mapped_ = 0;  // capacity_ rounded up to whole pages
};

}  // namespace hbemu::server
