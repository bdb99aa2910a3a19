#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "server/rest/router.h"

namespace hbemu::server::rest {

// What a row path names, as HBase's RowSpec reads "/T/ROW[/COLUMNS[/TIMESTAMP|/START,END]]"
// with ?v=VERSIONS. Each part is percent-decoded after the path is split, so an escaped '/' or
// ',' belongs to a key.
struct RowSpec {
  std::string row;
  // ROW ended with '*': every row beginning with `row` (HBase's suffix globbing).
  bool prefix = false;
  std::vector<std::string> columns;  // "family" or "family:qualifier"
  // One timestamp (an exact version) or a [start, end) range; absent: all time.
  bool has_timestamp = false;
  int64_t timestamp = std::numeric_limits<int64_t>::max();
  int64_t start_time = 0;
  int64_t end_time = std::numeric_limits<int64_t>::max();
  int32_t max_versions = 1;
};

// Parses route.row_spec and its query. `b64_keys` (the Encoding: b64 header) means ROW is
// base64. False with *error for a spec HBase answers 400 for (a bad timestamp or version
// count, bad base64).
bool ParseRowSpec(const Route& route, bool b64_keys, RowSpec* spec, std::string* error);

// "family:qualifier" split at the first ':'; false for a bare family.
bool SplitColumn(std::string_view column, std::string* family, std::string* qualifier);

}  // namespace hbemu::server::rest
