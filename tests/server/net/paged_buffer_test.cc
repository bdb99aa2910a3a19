#include "server/net/paged_buffer.h"

#include <cstdint>
#include <cstring>
#include <new>
#include <string>

#include <gtest/gtest.h>

namespace hbemu::server {
namespace {

TEST(PagedBufferTest, StartsEmptyAndKeepsItsBytesWhileGrowingAndShrinking) {
  PagedBuffer buffer;
  EXPECT_EQ(buffer.data(), nullptr);
  EXPECT_EQ(buffer.capacity(), 0u);
  buffer.Resize(10);
  ASSERT_NE(buffer.data(), nullptr);
  EXPECT_EQ(buffer.capacity(), 10u);
  std::memcpy(buffer.data(), "0123456789", 10);
  // Far past one page, so the mapping has to move or grow.
  buffer.Resize(64 << 20);
  EXPECT_EQ(buffer.capacity(), size_t{64} << 20);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buffer.data()), 10), "0123456789");
  buffer.data()[(64 << 20) - 1] = 'z';
  buffer.Resize(4);
  EXPECT_EQ(buffer.capacity(), 4u);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buffer.data()), 4), "0123");
}

TEST(PagedBufferTest, ResizingToZeroFreesAndAFreshBufferStartsZeroed) {
  PagedBuffer buffer;
  buffer.Resize(4096);
  std::memset(buffer.data(), 'x', 4096);
  buffer.Resize(0);
  EXPECT_EQ(buffer.data(), nullptr);
  EXPECT_EQ(buffer.capacity(), 0u);
  buffer.Resize(4096);
  ASSERT_NE(buffer.data(), nullptr);
  EXPECT_EQ(buffer.data()[0], 0);
  EXPECT_EQ(buffer.data()[4095], 0);
}

TEST(PagedBufferTest, AnImpossibleSizeThrowsBadAllocAndKeepsTheBuffer) {
  PagedBuffer buffer;
  buffer.Resize(100);
  buffer.data()[0] = 'k';
  EXPECT_THROW(buffer.Resize(size_t{1} << 62), std::bad_alloc);
  EXPECT_THROW(buffer.Resize(SIZE_MAX), std::bad_alloc);
  EXPECT_EQ(buffer.capacity(), 100u);
  EXPECT_EQ(buffer.data()[0], 'k');
}

}  // namespace
}  // namespace hbemu::server
