#pragma once

#include <cstddef>
#include <string>

namespace hbemu::storage {

// What the memory budgets (scanner_bytes) charge for the structures a request keeps: the one
// place their sizes are estimated. Measured with glibc's malloc on x86-64 (mallinfo2's bytes in
// use, before and after building 100,000 of each; tests/storage/memory_size_test.cc keeps them
// honest): an estimate may be above what is held, never below.

// A heap block of `n` bytes: glibc's 8-byte header, rounded up to 16, 32 at least.
constexpr size_t AllocationBytes(size_t n) {
  const size_t chunk = (n + 8 + 15) / 16 * 16;
  return chunk < 32 ? 32 : chunk;
}

// The heap a std::string of `length` bytes holds beyond the object (libstdc++ keeps up to 15
// bytes inside it).
constexpr size_t StringHeapBytes(size_t length) {
  return length <= 15 ? 0 : AllocationBytes(length + 1);
}
inline size_t StringHeapBytes(const std::string& s) { return StringHeapBytes(s.size()); }

// A node of std::set<std::string> (a named qualifier): 80 bytes measured, plus its string.
constexpr size_t kStringSetNodeBytes = AllocationBytes(32 + sizeof(std::string));
// A node of the family map, std::map<std::string, std::optional<std::set<std::string>>>: 128.
constexpr size_t kFamilyMapNodeBytes = AllocationBytes(32 + sizeof(std::string) + 56);

// One filter of a parsed tree (its object; what it owns is added by Filter::HeldBytes): the
// largest leaf object, SingleColumnValueFilter's, takes 112 bytes, a 128-byte block.
constexpr size_t kFilterNodeBytes = 128;

}  // namespace hbemu::storage
