// libFuzzer target for the filter-language parser: any byte string must either parse or fail
// with InvalidArgument, never crash, hang or leak. Parsed filters are also driven through the
// per-row protocol over a few synthetic cells, so the filters' own code is exercised too.
// Built and run by scripts/fuzz.sh (clang, -DENABLE_FUZZING=ON: libFuzzer, ASan, UBSan).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/filter_parser.h"

namespace {

using hbemu::storage::Cell;
using hbemu::storage::CellView;
using hbemu::storage::Filter;
using hbemu::storage::Status;

void Drive(const Filter& prototype) {
  std::unique_ptr<Filter> f = prototype.Clone();
  f->SetReversed(false);
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
  (void)f->ToString();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::shared_ptr<const Filter> filter;
  const Status s =
      hbemu::storage::ParseFilterString(std::string_view(reinterpret_cast<const char*>(data), size),
                                        &filter);
  if (s.ok()) {
    if (filter == nullptr) abort();
    Drive(*filter);
  } else if (s.code() != Status::Code::kInvalidArgument) {
    abort();
  }
  return 0;
}
