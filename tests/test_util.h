#pragma once

// Helpers shared by the storage and server test binaries. Depends on storage/ and GoogleTest
// only (server_tests compiles this file too, so no server headers here).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "storage/cell.h"
#include "storage/clock.h"
#include "storage/schema.h"
#include "storage/status.h"
#include "storage/store.h"

namespace hbemu::testutil {

// ---- Status assertions. The failure message quotes the expression and Status::ToString().

::testing::AssertionResult IsOk(const char* expr, const storage::Status& s);
::testing::AssertionResult HasCode(const char* code_expr, const char* expr,
                                   storage::Status::Code code, const storage::Status& s);
const char* CodeName(storage::Status::Code code);

#define ASSERT_OK(expr) ASSERT_PRED_FORMAT1(::hbemu::testutil::IsOk, expr)
#define EXPECT_OK(expr) EXPECT_PRED_FORMAT1(::hbemu::testutil::IsOk, expr)
// EXPECT_CODE(kTableNotFound, store->Get(...)): the status has exactly that code.
#define EXPECT_CODE(code, expr) \
  EXPECT_PRED_FORMAT2(::hbemu::testutil::HasCode, ::hbemu::storage::Status::Code::code, expr)
#define ASSERT_CODE(code, expr) \
  ASSERT_PRED_FORMAT2(::hbemu::testutil::HasCode, ::hbemu::storage::Status::Code::code, expr)

// ---- Polls `condition` every 2 ms until it holds (true) or `limit` passes (false): for what
// another thread or process brings about in its own time.
bool WaitUntil(const std::function<bool()>& condition,
               std::chrono::milliseconds limit = std::chrono::seconds(5));

// ---- A unique directory under the system temp dir, removed (recursively) on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + name (not created).
  std::string Sub(std::string_view name) const;

 private:
  std::string path_;
};

// ---- Random data. Byte strings are rich in 0x00 and 0xFF (and their neighbours 0x01, 0xFE,
// 0x7F, 0x80), where escaping and unsigned-order bugs live.

// A generator with a fixed seed: randomised tests are reproducible run to run.
std::mt19937_64 MakeRng(uint64_t seed);
// Length uniform in [min_len, max_len].
std::string RandomBytes(std::mt19937_64* rng, size_t min_len, size_t max_len);
// A printable rendering of bytes for failure messages: printable ASCII as is, others as \xHH.
std::string Escape(std::string_view bytes);

// -1, 0 or 1.
inline int Sign(int v) { return (v > 0) - (v < 0); }
// Compares as unsigned bytes, a proper prefix first: the order LevelDB's bytewise comparator and
// HBase use. Spelled out so order tests do not lean on std::string::compare's char_traits.
int UnsignedCompare(std::string_view a, std::string_view b);

// ---- Stores.

// Clock reading used by default in store tests: 2023-11-14T22:13:20Z.
inline constexpr int64_t kTestNowMs = 1'700'000'000'000;

// Opens an in-memory Store (LevelDB MemEnv) reading time from `clock`.
storage::Status OpenInMemoryStore(storage::Clock* clock, std::unique_ptr<storage::Store>* out,
                                  const storage::StoreLimits& limits = {});
// Opens (creating if needed) an on-disk Store at `path`.
storage::Status OpenDiskStore(const std::string& path, storage::Clock* clock,
                              std::unique_ptr<storage::Store>* out,
                              const storage::StoreLimits& limits = {});

// A family descriptor with HBase defaults except the given VERSIONS.
storage::FamilyDescriptor Family(std::string name, int32_t max_versions = 1);

// ---- Mutation shorthands.
storage::ColumnMutation PutOp(std::string family, std::string qualifier, int64_t ts,
                              std::string value);
storage::ColumnMutation DeleteOp(storage::MutationType type, std::string family,
                                 std::string qualifier = "",
                                 int64_t ts = storage::kLatestTimestamp);
storage::RowMutation Row(std::string row, std::vector<storage::ColumnMutation> mutations);

// "family:qualifier@ts=value", with bytes escaped: compact, readable expectations.
std::string CellString(const storage::Cell& cell);
std::vector<std::string> CellStrings(const std::vector<storage::Cell>& cells);

}  // namespace hbemu::testutil
