#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "server/rest/router.h"

namespace hbemu::server::rest {

// What a row path names, as HBase's RowSpec reads "/T/ROW[,END][/COLUMNS[/TIME[,END]]]" with
// ?v=VERSIONS. Each part is URL-decoded ('+' is a space) after the path is split, so an escaped
// '/' or ',' belongs to a key.
struct RowSpec {
  std::string row;
  // "START,END" or a glob "PREFIX*": the rows of [row, end_row), read by a scan. A glob's end is
  // the prefix followed by 0xFF, as HBase synthesises it.
  bool has_end_row = false;
  std::string end_row;
  // "family" or "family:qualifier", in byte order without duplicates (HBase keeps a sorted set,
  // so the "first" column of a path is the smallest).
  std::vector<std::string> columns;
  // "/TS" reads [0, TS) (the versions before TS); "/START,END" reads [START, END), unless END is
  // 0, which HBase takes as the single-timestamp form.
  int64_t start_time = 0;
  int64_t end_time = std::numeric_limits<int64_t>::max();
  int32_t max_versions = 1;

  // HBase's "has a timestamp": a path time with no start (deletes then stop at it).
  bool HasTimestamp() const {
    return start_time == 0 && end_time != std::numeric_limits<int64_t>::max();
  }
};

// Parses route.row_spec and its query (?v, ?e). `key_encoding` is the Encoding header (or the
// ?e parameter when the header is absent): "b64" and friends mean ROW, END and the columns are
// base64. False with *error for a spec HBase refuses while building the resource (malformed
// escape, time or version count, glob with an end row, undecodable base64, unknown encoding):
// HBase answers those with its container's 500.
bool ParseRowSpec(const Route& route, const std::string* key_encoding, RowSpec* spec,
                  std::string* error);

// "family:qualifier" split at the first ':'; false for a bare family.
bool SplitColumn(std::string_view column, std::string* family, std::string* qualifier);

}  // namespace hbemu::server::rest
