// The memory budgets' estimates (storage/memory_size.h): what ScanSpecBytes and
// Filter::TreeBytes charge for a scan request's columns and filter tree is at least what building
// them allocates, and not far above it. Measured with the allocator's own count of the bytes in
// use: glibc's mallinfo2, or the sanitizer's allocator under ASan/TSan (which counts the bytes
// asked for, so there the estimate is compared with a lower figure).

#include <malloc.h>

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "storage/filter_parser.h"
#include "storage/memory_size.h"
#include "storage/scanner.h"
#include "storage/store.h"
#include "tests/test_util.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HBEMU_SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HBEMU_SANITIZER_ALLOCATOR 1
#endif
#endif
#ifdef HBEMU_SANITIZER_ALLOCATOR
// The sanitizer runtimes' count (sanitizer/allocator_interface.h, which GCC does not install).
extern "C" size_t __sanitizer_get_current_allocated_bytes();
#endif

namespace hbemu::storage {
namespace {

size_t BytesInUse() {
#ifdef HBEMU_SANITIZER_ALLOCATOR
  return __sanitizer_get_current_allocated_bytes();
#else
  return mallinfo2().uordblks;
#endif
}

// How far above the count an estimate may be, in percent: glibc's count is of blocks; a
// sanitizer's is of the bytes asked for, which a 16-byte hash node doubles to reach a block.
#ifdef HBEMU_SANITIZER_ALLOCATOR
constexpr size_t kAbovePercent = 100;
#else
constexpr size_t kAbovePercent = 50;
#endif

// The estimate is not below what was allocated (within 2 %: the blocks glibc keeps per thread
// and a hash table's growth blur the count a little), and at most kAbovePercent above it (plus
// `unseen`: memory the count cannot see).
void ExpectHonest(size_t estimate, size_t allocated, const std::string& what,
                  size_t unseen = 0) {
  EXPECT_GE(estimate + allocated / 50 + 64, allocated) << what;
  EXPECT_LE(estimate, allocated + allocated * kAbovePercent / 100 + 512 + unseen) << what;
}

TEST(MemorySizeTest, NamedColumnsAreChargedWhatTheyHold) {
  for (size_t length : {1, 8, 15, 16, 24, 40, 100}) {
    auto spec = std::make_unique<ScanSpec>();
    const size_t empty = ScanSpecBytes(*spec);
    const size_t before = BytesInUse();
    for (int i = 0; i < 20000; ++i) {
      std::string qualifier = std::to_string(i);
      qualifier.resize(std::max(length, qualifier.size()), 'q');
      spec->read.columns.AddColumn("f", qualifier);
    }
    for (int i = 0; i < 2000; ++i) {
      std::string family = "g" + std::to_string(i);
      family.resize(std::max(length, family.size()), 'x');
      spec->read.columns.AddFamily(family);
    }
    const size_t allocated = BytesInUse() - before;
    ExpectHonest(ScanSpecBytes(*spec) - empty, allocated,
                 "names of " + std::to_string(length) + " bytes");
  }
}

TEST(MemorySizeTest, FilterTreesAreChargedWhatTheirPrototypeAndEachCloneHold) {
  std::string wide_or = "QualifierFilter(=, 'binary:q0')";
  for (int i = 1; i < 500; ++i) {
    wide_or += " OR QualifierFilter(=, 'binary:a-qualifier-longer-than-15-" + std::to_string(i) + "')";
  }
  std::string deep = "PrefixFilter('p')";
  for (int i = 0; i < 40; ++i) deep = "SKIP (" + deep + " OR KeyOnlyFilter())";
  std::string prefixes = "MultipleColumnPrefixFilter(";
  std::string stamps = "TimestampsFilter(";
  for (int i = 0; i < 1000; ++i) {
    prefixes += std::string(i ? ", " : "") + "'prefix-number-" + std::to_string(i) + "'";
    stamps += std::string(i ? ", " : "") + std::to_string(1000000 + i);
  }
  prefixes += ")";
  stamps += ")";
  // A compiled regex's JIT code lives in PCRE2's executable pages, mapped outside malloc: its
  // (about 1 KB here) is charged but not in the count.
  const std::string regex =
      "SingleColumnValueFilter('family', 'qualifier', =, 'regexstring:^(ab|cd)+[0-9]{3,}x*$')";
  const std::vector<std::string> filters = {
      "KeyOnlyFilter()",
      "PrefixFilter('a row prefix longer than fifteen bytes')",
      regex,
      "ColumnRangeFilter('a', true, 'a bound longer than fifteen bytes', false)",
      "ValueFilter(=, 'substring:needle') AND SKIP RowFilter(<, 'binaryprefix:row')",
      wide_or,
      deep,
      prefixes,
      stamps,
  };
  // Many copies at once: glibc's per-thread cache counts the blocks it keeps as in use, which
  // would hide a lone small allocation.
  constexpr size_t kCopies = 200;
  for (const std::string& text : filters) {
    const std::string what = text.substr(0, 60);
    std::vector<std::shared_ptr<const Filter>> prototypes(kCopies);
    size_t before = BytesInUse();
    for (auto& prototype : prototypes) ASSERT_OK(ParseFilterString(text, &prototype));
    // Each prototype also has its shared count, beside the tree.
    const size_t parsed = (BytesInUse() - before) / kCopies - AllocationBytes(24);
    ExpectHonest(prototypes[0]->TreeBytes(), parsed, "prototype of " + what,
                 text == regex ? 2048 : 0);
    // A clone shares the comparators: its own allocation is smaller, and it is charged for
    // them all the same.
    std::vector<std::unique_ptr<Filter>> clones(kCopies);
    before = BytesInUse();
    for (auto& clone : clones) clone = prototypes[0]->Clone();
    const size_t cloned = (BytesInUse() - before) / kCopies;
    EXPECT_GE(clones[0]->TreeBytes() + cloned / 50 + 64, cloned) << "clone of " << what;
  }
}

TEST(MemorySizeTest, FiltersWithoutTheirOptionalComparatorAreCounted) {
  // A DependentColumnFilter without a value condition holds no comparator: counting it once
  // followed a null pointer (the server died at the first such scan).
  for (const char* text :
       {"DependentColumnFilter('f', 'q')", "DependentColumnFilter('f', 'q', true)",
        "DependentColumnFilter('f', 'q', false, =, 'binary:v')"}) {
    std::shared_ptr<const Filter> filter;
    ASSERT_OK(ParseFilterString(text, &filter));
    EXPECT_GE(filter->TreeBytes(), sizeof(void*)) << text;
  }
}

TEST(MemorySizeTest, AScanRequestCountsItsFilterTree) {
  ScanSpec spec;
  const size_t without = ScanSpecBytes(spec);
  ASSERT_OK(ParseFilterString("PrefixFilter('a row prefix longer than fifteen bytes')",
                              &spec.read.filter));
  EXPECT_EQ(ScanSpecBytes(spec), without + spec.read.filter->TreeBytes());
}

// An open scanner keeps its own copy of the request and its own filter instance: both are in
// what it says it holds, beside the rows it read ahead.
TEST(MemorySizeTest, AnOpenScannerCountsItsCopyOfTheRequestAndItsFilter) {
  ManualClock clock(testutil::kTestNowMs);
  std::unique_ptr<Store> store;
  ASSERT_OK(testutil::OpenInMemoryStore(&clock, &store));
  ASSERT_OK(store->CreateTable("t", {testutil::Family("f")}));
  ScanSpec spec;
  for (int i = 0; i < 1000; ++i) spec.read.columns.AddColumn("f", "qualifier-" + std::to_string(i));
  ASSERT_OK(ParseFilterString("PrefixFilter('a row prefix longer than fifteen bytes')",
                              &spec.read.filter));
  std::unique_ptr<Scanner> scanner;
  ASSERT_OK(store->OpenScanner("t", spec, &scanner));
  EXPECT_GE(scanner->HeldBytes(), ScanSpecBytes(spec) + spec.read.filter->TreeBytes());
}

}  // namespace
}  // namespace hbemu::storage
