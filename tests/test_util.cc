#include "tests/test_util.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <thread>

namespace hbemu::testutil {

using storage::Status;

const char* CodeName(Status::Code code) {
  switch (code) {
    case Status::Code::kOk: return "kOk";
    case Status::Code::kInvalidArgument: return "kInvalidArgument";
    case Status::Code::kTableNotFound: return "kTableNotFound";
    case Status::Code::kTableExists: return "kTableExists";
    case Status::Code::kTableNotEnabled: return "kTableNotEnabled";
    case Status::Code::kTableNotDisabled: return "kTableNotDisabled";
    case Status::Code::kNamespaceNotFound: return "kNamespaceNotFound";
    case Status::Code::kNamespaceExists: return "kNamespaceExists";
    case Status::Code::kConstraint: return "kConstraint";
    case Status::Code::kNoSuchColumnFamily: return "kNoSuchColumnFamily";
    case Status::Code::kDoNotRetry: return "kDoNotRetry";
    case Status::Code::kCorruption: return "kCorruption";
    case Status::Code::kIOError: return "kIOError";
    case Status::Code::kIncompatibleFilter: return "kIncompatibleFilter";
    case Status::Code::kInvalidFamilyOperation: return "kInvalidFamilyOperation";
    case Status::Code::kSnapshotExists: return "kSnapshotExists";
    case Status::Code::kSnapshotNotFound: return "kSnapshotNotFound";
    case Status::Code::kSnapshotCreation: return "kSnapshotCreation";
    case Status::Code::kResultTooLarge: return "kResultTooLarge";
    case Status::Code::kRowTooBig: return "kRowTooBig";
    case Status::Code::kRegionTooBusy: return "kRegionTooBusy";
  }
  return "?";
}

::testing::AssertionResult IsOk(const char* expr, const Status& s) {
  if (s.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << expr << " returned " << s.ToString();
}

::testing::AssertionResult HasCode(const char* /*code_expr*/, const char* expr,
                                   Status::Code code, const Status& s) {
  if (s.code() == code) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << expr << " returned " << s.ToString() << ", expected "
                                       << CodeName(code);
}

bool WaitUntil(const std::function<bool()>& condition, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

TempDir::TempDir() {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string templ = (base / "hbemu_test_XXXXXX").string();
  char* made = mkdtemp(templ.data());
  if (made == nullptr) {
    ADD_FAILURE() << "mkdtemp failed for " << templ;
    return;
  }
  path_ = made;
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string TempDir::Sub(std::string_view name) const { return path_ + "/" + std::string(name); }

std::mt19937_64 MakeRng(uint64_t seed) { return std::mt19937_64(seed); }

int UnsignedCompare(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const auto x = static_cast<unsigned char>(a[i]);
    const auto y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

std::string RandomBytes(std::mt19937_64* rng, size_t min_len, size_t max_len) {
  std::uniform_int_distribution<size_t> len_dist(min_len, max_len);
  std::uniform_int_distribution<int> pick(0, 99);
  std::uniform_int_distribution<int> any(0, 255);
  const size_t n = len_dist(*rng);
  std::string s;
  s.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const int p = pick(*rng);
    int b;
    if (p < 30) {
      b = 0x00;
    } else if (p < 60) {
      b = 0xff;
    } else if (p < 68) {
      b = 0x01;
    } else if (p < 76) {
      b = 0xfe;
    } else if (p < 80) {
      b = 0x7f;
    } else if (p < 84) {
      b = 0x80;
    } else {
      b = any(*rng);
    }
    s.push_back(static_cast<char>(b));
  }
  return s;
}

std::string Escape(std::string_view bytes) {
  std::string out;
  for (char c : bytes) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && u != '\\') {
      out.push_back(c);
    } else {
      char buf[5];
      std::snprintf(buf, sizeof(buf), "\\x%02x", u);
      out += buf;
    }
  }
  return out;
}

Status OpenInMemoryStore(storage::Clock* clock, std::unique_ptr<storage::Store>* out,
                         const storage::StoreLimits& limits) {
  storage::StoreOptions options;
  options.limits = limits;
  options.in_memory = true;
  options.clock = clock;
  return storage::Store::Open(options, out);
}

Status OpenDiskStore(const std::string& path, storage::Clock* clock,
                     std::unique_ptr<storage::Store>* out, const storage::StoreLimits& limits) {
  storage::StoreOptions options;
  options.limits = limits;
  options.path = path;
  options.clock = clock;
  return storage::Store::Open(options, out);
}

storage::FamilyDescriptor Family(std::string name, int32_t max_versions) {
  storage::FamilyDescriptor f;
  f.name = std::move(name);
  f.max_versions = max_versions;
  return f;
}

storage::ColumnMutation PutOp(std::string family, std::string qualifier, int64_t ts,
                              std::string value) {
  storage::ColumnMutation m;
  m.type = storage::MutationType::kPut;
  m.family = std::move(family);
  m.qualifier = std::move(qualifier);
  m.timestamp = ts;
  m.value = std::move(value);
  return m;
}

storage::ColumnMutation DeleteOp(storage::MutationType type, std::string family,
                                 std::string qualifier, int64_t ts) {
  storage::ColumnMutation m;
  m.type = type;
  m.family = std::move(family);
  m.qualifier = std::move(qualifier);
  m.timestamp = ts;
  return m;
}

storage::RowMutation Row(std::string row, std::vector<storage::ColumnMutation> mutations) {
  storage::RowMutation m;
  m.row = std::move(row);
  m.mutations = std::move(mutations);
  return m;
}

std::string CellString(const storage::Cell& cell) {
  return Escape(cell.family) + ":" + Escape(cell.qualifier) + "@" +
         std::to_string(cell.timestamp) + "=" + Escape(cell.value);
}

std::vector<std::string> CellStrings(const std::vector<storage::Cell>& cells) {
  std::vector<std::string> out;
  out.reserve(cells.size());
  for (const auto& c : cells) out.push_back(CellString(c));
  return out;
}

}  // namespace hbemu::testutil
