#include "server/net/paged_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <new>

namespace hbemu::server {
namespace {

size_t PageRounded(size_t bytes) {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

}  // namespace

PagedBuffer::~PagedBuffer() { Resize(0); }

void PagedBuffer::Resize(size_t capacity) {
  // Rounding a size within a page of SIZE_MAX up would wrap to 0.
  if (capacity > SIZE_MAX - static_cast<size_t>(sysconf(_SC_PAGESIZE))) throw std::bad_alloc();
  const size_t mapped = PageRounded(capacity);
  void* moved = data_;
  if (mapped == mapped_) {
    // The same pages hold it.
  } else if (mapped == 0) {
    munmap(data_, mapped_);
    moved = nullptr;
  } else if (data_ == nullptr) {
    moved = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  } else {
    moved = mremap(data_, mapped_, mapped, MREMAP_MAYMOVE);
  }
  if (moved == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<uint8_t*>(moved);
  mapped_ = mapped;
  capacity_ = capacity;
}

}  // namespace hbemu::server
