// libFuzzer target for the filter-language parser: any byte string must either parse or fail
// with InvalidArgument, never crash, hang or leak. Parsed filters are also driven through the
// per-row protocol over a few synthetic cells, so the filters' own code is exercised too.
// Built and run by scripts/fuzz.sh (clang, -DENABLE_FUZZING=ON: libFuzzer, ASan, UBSan).
//
// Deep and long inputs come from short seeds: an input "#R<count>\n<head>\n<middle>\n<tail>"
// is expanded to head x count + middle + tail x count (at most kMaxExpanded bytes), so a seed of
// a few bytes stands for a million SKIPs or a filter nested to the depth limit and beyond. The
// target runs under smaller string and count limits than the server's defaults (the same code
// paths, thousands of times faster per input); the depth limit is the default.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/filter_parser.h"
#include "storage/store_limits.h"

namespace {

constexpr int64_t kStringBytes = 64 << 10;  // filter_string_bytes here
constexpr int64_t kFilterCount = 4096;       // filter_count here
constexpr size_t kMaxExpanded = 96 << 10;    // past kStringBytes

// The "#R" form above; false for any other input (used as it is).
bool Expand(std::string_view in, std::string* out) {
  if (in.size() < 2 || in.substr(0, 2) != "#R") return false;
  in.remove_prefix(2);
  size_t count = 0;
  while (!in.empty() && in.front() >= '0' && in.front() <= '9' && count < 10000000) {
    count = count * 10 + static_cast<size_t>(in.front() - '0');
    in.remove_prefix(1);
  }
  std::string_view parts[3];
  for (std::string_view& part : parts) {
    if (!in.empty() && in.front() == '\n') in.remove_prefix(1);
    const size_t end = std::min(in.find('\n'), in.size());
    part = in.substr(0, end);
    in.remove_prefix(end);
  }
  const size_t unit = parts[0].size() + parts[2].size();
  if (unit > 0) count = std::min(count, (kMaxExpanded - parts[1].size()) / unit);
  out->reserve(unit * count + parts[1].size());
  for (size_t i = 0; i < count; ++i) out->append(parts[0]);
  out->append(parts[1]);
  for (size_t i = 0; i < count; ++i) out->append(parts[2]);
  return true;
}

using hbemu::storage::Cell;
using hbemu::storage::CellView;
using hbemu::storage::Filter;
using hbemu::storage::Status;

void DriveRows(Filter* f) {
  static const char* kRows[] = {"", "a", "b1", "c\xff"};
  static const char* kQualifiers[] = {"", "a", "ab", "b", "q"};
  for (const char* row : kRows) {
    if (f->FilterAllRemaining()) break;
    if (f->FilterRowKey(row)) {
      f->Reset();
      continue;
    }
    std::vector<Cell> cells;
    for (const char* family : {"f", "g"}) {
      for (const char* q : kQualifiers) {
        for (int64_t ts : {30, 20, 10}) {
          const std::string value = std::string(q) + "v" + std::to_string(ts);
          const CellView view{row, family, q, ts, value};
          switch (f->FilterCell(view)) {
            case hbemu::storage::FilterCode::kInclude:
            case hbemu::storage::FilterCode::kIncludeAndNextCol:
            case hbemu::storage::FilterCode::kIncludeAndSeekNextRow: {
              Cell c{family, q, ts, value};
              f->TransformCell(&c);
              cells.push_back(std::move(c));
              break;
            }
            case hbemu::storage::FilterCode::kSeekNextUsingHint: {
              std::string hf, hq;
              f->NextCellHint(view, &hf, &hq);
              break;
            }
            default:
              break;
          }
        }
      }
    }
    if (f->HasFilterRow()) f->FilterRowCells(&cells);
    if (!cells.empty()) f->FilterRow();
    f->Reset();
  }
}

void Drive(const Filter& prototype) {
  std::unique_ptr<Filter> f = prototype.Clone();
  f->SetReversed(false);
  DriveRows(f.get());
  // Again after a Restart, as a scanner entering its next region.
  f->Restart();
  DriveRows(f.get());
  (void)f->ToString();
  // And a reversed copy of the used one.
  f->SetReversed(true);
  std::unique_ptr<Filter> reversed = f->Clone();
  DriveRows(reversed.get());
}

}  // namespace

static hbemu::storage::FilterLimits FuzzLimits() {
  hbemu::storage::FilterLimits limits;
  limits.filter_string_bytes = kStringBytes;
  limits.filter_count = kFilterCount;
  return limits;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string expanded;
  if (Expand(text, &expanded)) text = expanded;
  std::shared_ptr<const Filter> filter;
  const Status s = hbemu::storage::ParseFilterString(text, FuzzLimits(), &filter);
  if (s.ok()) {
    if (filter == nullptr) abort();
    Drive(*filter);
  } else if (s.code() != Status::Code::kInvalidArgument) {
    abort();
  }
  return 0;
}
