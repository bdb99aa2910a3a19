// The stateless scan: GET /T/PREFIX* with its query parameters, answered as one CellSet (XML,
// JSON) or a stream of length-prefixed CellSets (protobuf).

#include <algorithm>

#include "server/admin/metrics.h"
#include "server/rest/jetty_error.h"
#include "server/rest/query_numbers.h"
#include "server/rest/rest_service.h"
#include "server/rest/row_spec.h"
#include "server/rest/scan_stream.h"
#include "storage/filter_parser.h"
#include "server/limits.h"
#include "storage/store.h"

namespace hbemu::server::rest {
namespace {

using storage::Status;

}  // namespace

HttpResponse RestService::TableScan(const HttpRequest& request, const Route& route) {
  auto [type, rep, refusal] = Negotiate(request, CellSetTypes());
  if (refusal) return *refusal;
  std::string prefix;
  std::string_view raw = route.row_spec;
  raw.remove_suffix(1);  // the '*'
  if (!PercentDecode(raw, false, &prefix)) return BadRequest();

  storage::ScanSpec scan;
  int64_t start_time = 0;
  int64_t end_time = INT64_MAX;
  int64_t max_versions = 1;
  int64_t batch = 0;
  // HBase's limit counts results, and with a batch size a row comes as several results: the
  // door counts them here rather than letting the store count rows. Zero or less: none.
  int64_t limit = INT32_MAX;
  if (!JavaNumberParam(route, "starttime", JavaType::kLong, 0, &start_time) ||
      !JavaNumberParam(route, "endtime", JavaType::kLong, INT64_MAX, &end_time) ||
      !JavaNumberParam(route, "maxversions", JavaType::kInt, 1, &max_versions) ||
      !JavaNumberParam(route, "batchsize", JavaType::kInt, 0, &batch) ||
      !JavaNumberParam(route, "limit", JavaType::kInt, INT32_MAX, &limit)) {
    return JettyError(request, 404, "Not Found");
  }
  // HBase's TimeRange throws on a negative or inverted range, and the resource lets it through.
  if (start_time < 0 || end_time < 0 || start_time > end_time) return RequestFailed(request);
  // No versions read (maxversions 0 or less) finds no cells, so no rows; a batch of 0 or less
  // is no batch.
  const bool no_cells = max_versions < 1;
  max_versions = std::max<int64_t>(max_versions, 1);
  batch = std::max<int64_t>(batch, 0);
  scan.read.time_range = {start_time, end_time};
  scan.read.max_versions = static_cast<int32_t>(max_versions);
  scan.batch = static_cast<int32_t>(batch);
  if (const std::string* reversed = route.Param("reversed")) scan.reversed = *reversed == "true";
  // HBase starts the scan at the prefix (unless startrow says otherwise) and filters rows by it.
  // Forward that is the store's prefix scan. Reversed it starts at the prefix and walks down,
  // away from the rows that have it: only the prefix itself (or, from a later startrow, the rows
  // down to it) can match, so the door filters those rows itself.
  const bool reversed_prefix = scan.reversed && !prefix.empty();
  if (reversed_prefix) {
    scan.start_row = prefix;
  } else if (!prefix.empty()) {
    scan.row_prefix = prefix;
  }
  if (const std::string* start = route.Param("startrow")) scan.start_row = *start;
  if (const std::string* end = route.Param("endrow")) scan.stop_row = *end;
  for (const std::string& column : route.Params("column")) {
    std::string family;
    std::string qualifier;
    if (SplitColumn(column, &family, &qualifier)) {
      scan.read.columns.AddColumn(family, qualifier);
    } else {
      scan.read.columns.AddFamily(family);
    }
  }
  if (const std::string* filter = route.Param("filter")) {
    // HBase's resource lets the parser's exception through: Jetty's 500.
    if (!storage::ParseFilterString(*filter, &scan.read.filter).ok()) return RequestFailed(request);
  }
  std::unique_ptr<storage::Scanner> scanner;
  Status s = store_->OpenScanner(route.table, scan, &scanner);
  // HBase opens the scan in its sub-resource locator, where even the failures its resources
  // answer elsewhere (a missing table or family) end in the container's 500.
  if (!s.ok()) return RequestFailed(request);
  CellSetModel cells;
  const size_t budget = static_cast<size_t>(CurrentLimits().result_bytes);
  size_t bytes = 0;
  bool passed_prefix = false;
  while (!no_cells && !passed_prefix && static_cast<int64_t>(cells.rows.size()) < limit) {
    std::vector<storage::RowResult> rows;
    const int64_t wanted = limit - static_cast<int64_t>(cells.rows.size());
    s = scanner->Next(static_cast<size_t>(std::min<int64_t>(100, wanted)), &rows);
    // HBase reads the scan while it writes the answer, outside its resource's handler: a failure
    // there (after its client's retries) is the container's 500.
    if (!s.ok()) return RequestFailed(request);
    if (rows.empty()) break;
    for (const auto& row : rows) {
      if (reversed_prefix && row.row.compare(0, prefix.size(), prefix) != 0) {
        passed_prefix = row.row < prefix;
        if (passed_prefix) break;
        continue;
      }
      if (static_cast<int64_t>(cells.rows.size()) >= limit) break;
      RowModel model;
      model.key = row.row;
      bytes += row.row.size();
      for (const storage::Cell& cell : row.cells) {
        bytes += cell.family.size() + cell.qualifier.size() + cell.value.size() + 16;
        model.cells.push_back({cell.family + ":" + cell.qualifier, cell.timestamp, cell.value});
      }
      if (bytes > budget) return PastResultBytes();
      cells.rows.push_back(std::move(model));
    }
  }
  for (const RowModel& row : cells.rows) admin::NoteRead(route.table, row.key);
  if (rep == Representation::kProtobuf) return Ok(type, EncodeCellSetStream(cells.rows, limit));
  return Ok(type, Encode(rep, cells));
}

}  // namespace hbemu::server::rest
