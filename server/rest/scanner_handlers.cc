// Stateful scanners: PUT/POST /T/scanner opens one (201 + Location), GET /T/scanner/ID fetches
// (n rows, c cells; 204 when done, 404 once forgotten), DELETE closes it.

#include <algorithm>
#include <optional>

#include "server/admin/metrics.h"
#include "server/rest/base64.h"
#include "server/rest/filter_model.h"
#include "server/rest/jetty_error.h"
#include "server/rest/query_numbers.h"
#include "server/rest/rest_scanners.h"
#include "server/rest/rest_service.h"
#include "server/rest/row_spec.h"
#include "server/limits.h"
#include "storage/store.h"

namespace hbemu::server::rest {

using storage::Status;

namespace {

HttpResponse NoContent() {
  HttpResponse done;
  done.status = 204;
  return done;
}

// HBase's scanner generator reads a failed fetch three ways: a missing table is an
// IllegalArgumentException its cell fetch answers "Not found" (its octet-stream fetch lets it
// through: Jetty's 500); a disabled table is an IllegalStateException that drops the scanner
// (410); any other IOException (a missing family, ...) it logs and reads as the end of the rows
// for this fetch (nullopt here). A scanner kept this way retries at its next fetch.
std::optional<HttpResponse> FetchFailed(const Status& status, bool single,
                                        const HttpRequest& request, RestScanners* scanners,
                                        const std::string& id) {
  if (status.code() == Status::Code::kTableNotFound) {
    return single ? RequestFailed(request) : NotFound();
  }
  if (status.code() == Status::Code::kTableNotEnabled) {
    scanners->Remove(id);
    return Plain(410, "Gone\r\n");
  }
  return std::nullopt;
}

}  // namespace

HttpResponse RestService::OpenScanner(const HttpRequest& request, const Route& route) {
  Representation rep;
  HttpResponse refusal;
  if (!ChooseRequest(request, &rep, &refusal)) return refusal;
  ScannerModel model;
  BodyStatus decoded = Decode(rep, request.body, &model);
  if (!decoded.ok()) return BodyRefusal(decoded);
  storage::ScanSpec scan;
  scan.start_row = model.start_row;
  scan.stop_row = model.end_row;
  for (const std::string& column : model.columns) {
    std::string family;
    std::string qualifier;
    if (SplitColumn(column, &family, &qualifier)) {
      scan.read.columns.AddColumn(family, qualifier);
    } else {
      scan.read.columns.AddFamily(family);
    }
  }
  scan.read.time_range = {model.start_time, model.end_time};
  scan.read.max_versions = std::max(1, model.max_versions);
  // Reading no versions (maxVersions 0 or less) finds no cells: every fetch answers 204.
  const bool no_cells = model.max_versions < 1;
  if (model.limit) scan.limit = *model.limit;
  scan.reversed = model.reversed;
  if (model.filter && !model.filter->empty()) {
    BodyStatus built = BuildScannerFilter(*model.filter, &scan.read.filter);
    if (!built.ok()) return BodyRefusal(built);
  }
  auto entry = std::make_shared<RestScanners::Entry>();
  entry->table = route.table;
  entry->batch = model.batch > 0 ? model.batch : std::numeric_limits<int32_t>::max();
  // Opened at the first fetch, as HBase does: a scanner of a missing table is still created.
  entry->spec = std::move(scan);
  entry->exhausted = no_cells;
  // What it holds counts against scanner_bytes with the Thrift scanners' (HBase's gateway has
  // no such bound; a refusal is its RegionTooBusyException, 503).
  Status charged = RestScanners::Charge(entry.get());
  if (!charged.ok()) return FromStatus(charged);
  const std::string id = scanners_->Add(std::move(entry));
  HttpResponse response;
  response.status = 201;
  const std::string target = request.target.substr(0, request.target.find('?'));
  response.headers.emplace_back("Location", "http://" + request.Header("Host") + target + "/" + id);
  return response;
}

HttpResponse RestService::Scanner(const HttpRequest& request, const Route& route) {
  const std::string& method = request.method;
  if (method == "DELETE") {
    if (!scanners_->Remove(route.scanner_id)) return NotFound();
    return Plain(200, "");
  }
  if (method != "GET" && method != "HEAD") return MethodNotAllowed(request, "DELETE,GET,OPTIONS");
  auto [type, rep, refusal] = Negotiate(request, ProducesCells());
  if (refusal) return *refusal;
  // n: rows, c: cells (else the scanner's batch), both bounded by scanner_rows_per_call.
  int64_t max_rows = 0;
  int64_t max_cells = 0;
  if (!JavaNumberParam(route, "n", JavaType::kInt, 0, &max_rows) ||
      !JavaNumberParam(route, "c", JavaType::kInt, 0, &max_cells)) {
    return JettyError(request, 404, "Not Found");
  }
  std::shared_ptr<RestScanners::Entry> entry = scanners_->Find(route.scanner_id);
  if (!entry) return NotFound();
  std::lock_guard<std::mutex> lock(entry->mu);
  const bool single = rep == Representation::kOctetStream;
  const Limits& limits = CurrentLimits();
  if (max_cells <= 0) max_cells = entry->batch;
  max_cells = std::min<int64_t>(max_cells, limits.scanner_rows_per_call);
  if (max_rows <= 0 || max_rows > limits.scanner_rows_per_call) {
    max_rows = limits.scanner_rows_per_call;
  }
  if (single) max_cells = max_rows = 1;
  if (!entry->scanner) {
    // Opened at the first fetch; a failed open leaves it unopened for the next one.
    Status s = store_->OpenScanner(entry->table, entry->spec, &entry->scanner);
    if (!s.ok()) {
      auto failed = FetchFailed(s, single, request, scanners_.get(), route.scanner_id);
      return failed ? *failed : NoContent();
    }
  }
  CellSetModel cells;
  int64_t cells_sent = 0;
  size_t bytes = 0;
  while (cells_sent < max_cells && static_cast<int64_t>(cells.rows.size()) < max_rows &&
         bytes < static_cast<size_t>(limits.reply_bytes)) {
    if (entry->pending.empty()) {
      if (entry->exhausted) break;
      std::vector<storage::RowResult> rows;
      Status s = entry->scanner->Next(1, &rows);
      if (!s.ok()) {
        auto failed = FetchFailed(s, single, request, scanners_.get(), route.scanner_id);
        if (failed) return *failed;
        break;
      }
      if (rows.empty()) {
        entry->exhausted = true;
        break;
      }
      for (auto& row : rows) entry->pending.push_back(std::move(row));
      continue;
    }
    storage::RowResult& row = entry->pending.front();
    RowModel model;
    model.key = row.row;
    size_t taken = 0;
    while (taken < row.cells.size() && cells_sent < max_cells) {
      const storage::Cell& cell = row.cells[taken++];
      bytes += cell.family.size() + cell.qualifier.size() + cell.value.size() + 16;
      model.cells.push_back({cell.family + ":" + cell.qualifier, cell.timestamp, cell.value});
      ++cells_sent;
    }
    row.cells.erase(row.cells.begin(), row.cells.begin() + static_cast<long>(taken));
    if (row.cells.empty()) entry->pending.pop_front();
    if (!model.cells.empty()) cells.rows.push_back(std::move(model));
  }
  RestScanners::Recount(entry.get());
  for (const RowModel& row : cells.rows) admin::NoteRead(entry->table, row.key);
  if (cells.rows.empty()) return NoContent();
  if (single) {
    const RowModel& row = cells.rows.front();
    const CellModel& cell = row.cells.front();
    HttpResponse response = Ok(std::string(kOctetStream), cell.value);
    // Unlike a row GET's, a scanner's coordinates are base64, as HBase writes them.
    response.headers.emplace_back("X-Row", Base64Encode(row.key));
    response.headers.emplace_back("X-Column", Base64Encode(cell.column));
    response.headers.emplace_back("X-Timestamp", std::to_string(cell.timestamp.value_or(0)));
    return response;
  }
  return Ok(type, Encode(rep, cells));
}

}  // namespace hbemu::server::rest
