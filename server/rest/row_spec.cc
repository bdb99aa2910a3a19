#include "server/rest/row_spec.h"

#include <cerrno>
#include <cstdlib>

#include "server/rest/base64.h"

namespace hbemu::server::rest {
namespace {

bool ParseLong(const std::string& text, int64_t* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0' || errno != 0) return false;
  *out = v;
  return true;
}

}  // namespace

bool SplitColumn(std::string_view column, std::string* family, std::string* qualifier) {
  const size_t colon = column.find(':');
  if (colon == std::string_view::npos) {
    *family = std::string(column);
    qualifier->clear();
    return false;
  }
  *family = std::string(column.substr(0, colon));
  *qualifier = std::string(column.substr(colon + 1));
  return true;
}

bool ParseRowSpec(const Route& route, bool b64_keys, RowSpec* spec, std::string* error) {
  std::string_view rest = route.row_spec;
  const size_t first_slash = rest.find('/');
  std::string_view raw_row = rest.substr(0, first_slash);
  rest = first_slash == std::string_view::npos ? std::string_view() : rest.substr(first_slash + 1);
  if (!raw_row.empty() && raw_row.back() == '*') {
    spec->prefix = true;
    raw_row.remove_suffix(1);
  }
  if (!PercentDecode(raw_row, false, &spec->row)) {
    *error = "bad escape in the row key";
    return false;
  }
  if (b64_keys) {
    std::string decoded;
    if (!Base64DecodeStrict(spec->row, &decoded)) {
      *error = "the row key is not base64";
      return false;
    }
    spec->row = std::move(decoded);
  }
  // Columns.
  const size_t second_slash = rest.find('/');
  const std::string_view raw_columns = rest.substr(0, second_slash);
  rest = second_slash == std::string_view::npos ? std::string_view()
                                                : rest.substr(second_slash + 1);
  size_t begin = 0;
  while (begin < raw_columns.size()) {
    size_t end = raw_columns.find(',', begin);
    if (end == std::string_view::npos) end = raw_columns.size();
    std::string column;
    if (!PercentDecode(raw_columns.substr(begin, end - begin), false, &column)) {
      *error = "bad escape in a column";
      return false;
    }
    if (!column.empty()) spec->columns.push_back(std::move(column));
    begin = end + 1;
  }
  // Timestamps: "TS" or "START,END".
  const std::string_view raw_time = rest.substr(0, rest.find('/'));
  if (!raw_time.empty()) {
    const size_t comma = raw_time.find(',');
    if (comma == std::string_view::npos) {
      if (!ParseLong(std::string(raw_time), &spec->timestamp)) {
        *error = "bad timestamp";
        return false;
      }
      spec->has_timestamp = true;
    } else if (!ParseLong(std::string(raw_time.substr(0, comma)), &spec->start_time) ||
               !ParseLong(std::string(raw_time.substr(comma + 1)), &spec->end_time)) {
      *error = "bad time range";
      return false;
    }
  }
  if (const std::string* versions = route.Param("v")) {
    int64_t v = 0;
    if (!ParseLong(*versions, &v) || v < 1 || v > std::numeric_limits<int32_t>::max()) {
      *error = "bad version count";
      return false;
    }
    spec->max_versions = static_cast<int32_t>(v);
  }
  return true;
}

}  // namespace hbemu::server::rest
