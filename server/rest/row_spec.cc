#include "server/rest/row_spec.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <utility>

#include "server/rest/base64.h"
#include "storage/java_utf8.h"

namespace hbemu::server::rest {
namespace {

// Java's Long.parseLong: an optional sign and decimal digits, nothing else.
bool ParseJavaLong(const std::string& text, int64_t* out) {
  if (text.empty()) return false;
  const size_t digits = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  if (digits == text.size()) return false;
  for (size_t i = digits; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  errno = 0;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno != 0) return false;
  *out = v;
  return true;
}

// The key decoder an Encoding value names; false for a name HBase does not know.
bool DecoderOf(const std::string& encoding, bool* url_safe) {
  if (encoding == "b64" || encoding == "base64" || encoding == "b64url" ||
      encoding == "base64url") {
    *url_safe = true;
    return true;
  }
  if (encoding == "b64basic" || encoding == "base64basic") {
    *url_safe = false;
    return true;
  }
  return false;
}

// The bytes of a path part as HBase has them: URLDecoder turns the escapes into a UTF-8 string
// (a malformed sequence becomes U+FFFD, one per maximal ill-formed prefix) and Bytes.toBytes
// writes that string back as UTF-8, so "%FF" reads as EF BF BD.
bool JavaUrlDecode(std::string_view text, std::string* out) {
  std::string raw;
  if (!PercentDecode(text, true, &raw)) return false;
  if (!storage::ReplaceInvalidUtf8(raw, out)) *out = std::move(raw);
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

bool ParseRowSpec(const Route& route, const std::string* key_encoding, RowSpec* spec,
                  std::string* error) {
  std::string_view rest = route.row_spec;
  while (!rest.empty() && rest.front() == '/') rest.remove_prefix(1);
  // Rows: "ROW", "START,END" or "PREFIX*".
  const size_t first_slash = rest.find('/');
  const std::string_view raw_rows = rest.substr(0, first_slash);
  rest = first_slash == std::string_view::npos ? std::string_view() : rest.substr(first_slash + 1);
  const size_t comma = raw_rows.find(',');
  if (!JavaUrlDecode(raw_rows.substr(0, comma), &spec->row) ||
      (comma != std::string_view::npos &&
       !JavaUrlDecode(raw_rows.substr(comma + 1), &spec->end_row))) {
    *error = "bad escape in the row key";
    return false;
  }
  spec->has_end_row = comma != std::string_view::npos;
  if (spec->row.empty()) {
    *error = "no row key";
    return false;
  }
  if (spec->row.back() == '*') {
    if (spec->has_end_row) {
      *error = "invalid path: start row specified with wildcard";
      return false;
    }
    spec->row.erase(spec->row.rfind('*'));
    spec->has_end_row = true;
    spec->end_row = spec->row + '\xff';
  }
  // Columns, up to the next '/'.
  const size_t second_slash = rest.find('/');
  const std::string_view raw_columns = rest.substr(0, second_slash);
  rest = second_slash == std::string_view::npos ? std::string_view()
                                                : rest.substr(second_slash + 1);
  size_t begin = 0;
  while (begin < raw_columns.size()) {
    size_t end = raw_columns.find(',', begin);
    if (end == begin) {
      *error = "invalid path";
      return false;
    }
    if (end == std::string_view::npos) end = raw_columns.size();
    std::string column;
    if (!JavaUrlDecode(raw_columns.substr(begin, end - begin), &column)) {
      *error = "bad escape in a column";
      return false;
    }
    spec->columns.push_back(std::move(column));
    begin = end + 1;
  }
  // Time: "TS" or "START,END".
  if (!rest.empty()) {
    const size_t stop = rest.find_first_of("/,");
    std::string time0;
    int64_t t0 = 0;
    int64_t t1 = 0;
    if (!PercentDecode(rest.substr(0, stop), true, &time0) || !ParseJavaLong(time0, &t0)) {
      *error = "bad timestamp";
      return false;
    }
    if (stop != std::string_view::npos && rest[stop] == ',') {
      const std::string_view after = rest.substr(stop + 1);
      std::string time1;
      if (!PercentDecode(after.substr(0, after.find('/')), true, &time1) ||
          !ParseJavaLong(time1, &t1)) {
        *error = "bad time range";
        return false;
      }
    }
    if (t1 != 0) {
      spec->start_time = t0;
      spec->end_time = t1;
    } else {
      spec->end_time = t0;
    }
  }
  if (key_encoding != nullptr) {
    bool url_safe = true;
    if (!DecoderOf(*key_encoding, &url_safe)) {
      *error = "unknown key encoding '" + *key_encoding + "'";
      return false;
    }
    std::string decoded;
    if (!Base64DecodeJava(spec->row, url_safe, &decoded)) {
      *error = "the row key is not base64";
      return false;
    }
    spec->row = std::move(decoded);
    if (spec->has_end_row) {
      if (!Base64DecodeJava(spec->end_row, url_safe, &decoded)) {
        *error = "the end row is not base64";
        return false;
      }
      spec->end_row = std::move(decoded);
    }
    for (std::string& column : spec->columns) {
      if (!Base64DecodeJava(column, url_safe, &decoded)) {
        *error = "a column is not base64";
        return false;
      }
      column = std::move(decoded);
    }
  }
  std::sort(spec->columns.begin(), spec->columns.end());
  spec->columns.erase(std::unique(spec->columns.begin(), spec->columns.end()),
                      spec->columns.end());
  if (const std::string* versions = route.Param("v")) {
    int64_t v = 0;
    // Integer.parseInt when the resource is built; a count below 1 fails later, at the read.
    if (!ParseJavaLong(*versions, &v) || v < std::numeric_limits<int32_t>::min() ||
        v > std::numeric_limits<int32_t>::max()) {
      *error = "bad version count";
      return false;
    }
    spec->max_versions = static_cast<int32_t>(v);
  }
  return true;
}

}  // namespace hbemu::server::rest
