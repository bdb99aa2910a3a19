// The row resource (/T/ROW...) and multiget: reads, CellSet and single-value writes, deletes,
// and the check=put|delete|append|increment variants.

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "server/rest/jetty_error.h"
#include "server/admin/metrics.h"
#include "server/rest/rest_service.h"
#include "server/rest/row_spec.h"
#include "server/limits.h"
#include "storage/store.h"

namespace hbemu::server::rest {
namespace {

using storage::Status;

storage::ReadSpec ReadSpecOf(const RowSpec& spec) {
  storage::ReadSpec read;
  for (const std::string& column : spec.columns) {
    std::string family;
    std::string qualifier;
    if (SplitColumn(column, &family, &qualifier)) {
      read.columns.AddColumn(family, qualifier);
    } else {
      read.columns.AddFamily(family);
    }
  }
  read.time_range.min = spec.start_time;
  read.time_range.max = spec.end_time;
  read.max_versions = spec.max_versions;
  return read;
}

RowModel ToRowModel(const storage::RowResult& row) {
  RowModel model;
  model.key = row.row;
  for (const storage::Cell& cell : row.cells) {
    model.cells.push_back({cell.family + ":" + cell.qualifier, cell.timestamp, cell.value});
  }
  return model;
}

// Bytes a response may carry: past it the read stops and the gateway's answer for a result
// too large (503) is given.
size_t ResultBudget() { return static_cast<size_t>(CurrentLimits().result_bytes); }

size_t RowBytes(const storage::RowResult& row) {
  size_t bytes = row.row.size();
  for (const storage::Cell& cell : row.cells) {
    bytes += cell.family.size() + cell.qualifier.size() + cell.value.size() + 16;
  }
  return bytes;
}

bool ParseLong(const std::string& text, int64_t* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0' || errno != 0) return false;
  *out = v;
  return true;
}

// The key encoding of a request: the Encoding header, else the ?e parameter; nullptr for none.
const std::string* KeyEncodingOf(const HttpRequest& request, const Route& route,
                                 std::string* storage) {
  if (request.HasHeader("Encoding")) {
    *storage = request.Header("Encoding");
    return storage;
  }
  return route.Param("e");
}

// "Bad request: WHAT", HBase's texts for a malformed check or CellSet.
HttpResponse BadRequestSaying(const std::string& what) { return Plain(400, "Bad request: " + what); }

// HBase's row get (and range scan) swallows a DoNotRetryIOException (missing table or family, disabled table,
// bad argument) and answers as for a missing row.
bool GetReadsAsNothing(const Status& status) {
  using Code = Status::Code;
  switch (status.code()) {
    case Code::kTableNotFound:
    case Code::kNoSuchColumnFamily:
    case Code::kDoNotRetry:
    case Code::kTableNotEnabled:
    case Code::kInvalidArgument:
      return true;
    default:
      return false;
  }
}

// HBase builds the row resource before it runs, so a path it cannot read fails inside its
// container: 500.
HttpResponse SpecRefused(const HttpRequest& request) {
  return RequestFailed(request);
}

bool ParseSpecOf(const HttpRequest& request, const Route& route, RowSpec* spec,
                 std::string* error) {
  std::string encoding;
  return ParseRowSpec(route, KeyEncodingOf(request, route, &encoding), spec, error);
}

// The cells a row path names: one row by a get, or [row, end_row) by a scan.
Status ReadSpecRows(storage::Store* store, const std::string& table, const RowSpec& spec,
                    std::vector<storage::RowResult>* rows, bool* too_large) {
  const storage::ReadSpec read = ReadSpecOf(spec);
  *too_large = false;
  if (!spec.has_end_row) {
    storage::RowResult result;
    Status s = store->Get(table, spec.row, read, &result);
    if (!s.ok()) return s;
    if (!result.cells.empty()) {
      result.row = spec.row;
      rows->push_back(std::move(result));
    }
    return Status::OK();
  }
  storage::ScanSpec scan;
  scan.start_row = spec.row;
  scan.stop_row = spec.end_row;
  scan.read = read;
  std::unique_ptr<storage::Scanner> scanner;
  Status s = store->OpenScanner(table, scan, &scanner);
  if (!s.ok()) return s;
  size_t bytes = 0;
  while (true) {
    std::vector<storage::RowResult> batch;
    s = scanner->Next(100, &batch);
    if (!s.ok()) return s;
    if (batch.empty()) return Status::OK();
    for (auto& row : batch) {
      bytes += RowBytes(row);
      if (bytes > ResultBudget()) {
        *too_large = true;
        return Status::OK();
      }
      rows->push_back(std::move(row));
    }
  }
}

}  // namespace

HttpResponse RestService::Row(const HttpRequest& request, const Route& route) {
  const std::string& method = request.method;
  if (method == "GET" || method == "HEAD") return GetRow(request, route);
  if (method == "PUT" || method == "POST") return PutRow(request, route);
  if (method == "DELETE") return DeleteRow(request, route);
  return MethodNotAllowed(request, "DELETE,POST,GET,OPTIONS,PUT");
}

HttpResponse RestService::GetRow(const HttpRequest& request, const Route& route) {
  auto [type, rep, refusal] = Negotiate(request, ProducesCells());
  if (refusal) return *refusal;
  RowSpec spec;
  std::string error;
  if (!ParseSpecOf(request, route, &spec, &error)) return SpecRefused(request);
  const bool one_value = rep == Representation::kOctetStream;
  if (one_value && spec.columns.size() != 1) {
    // HBase's text names the types its other GET produces.
    return Plain(400,
                 "Bad request: Default 'GET' method only works if there is exactly 1 column in "
                 "the row. Using the 'Accept' header with one of these formats lets you retrieve "
                 "the entire row if it has multiple columns: text/xml, application/json, "
                 "application/x-protobuf, application/protobuf\r\n");
  }
  if (spec.max_versions < 1) {
    // HBase's Get refuses it when the read runs, as an IOException.
    return Unavailable("java.io.IOException: versions must be positive\r\n");
  }
  std::vector<storage::RowResult> rows;
  bool too_large = false;
  Status s = ReadSpecRows(store_, route.table, spec, &rows, &too_large);
  // A get HBase cannot do (missing table or family) reads as nothing found.
  if (!s.ok() && GetReadsAsNothing(s)) return NotFound();
  if (!s.ok()) return FromStatus(s);
  if (too_large) return PastResultBytes();
  if (rows.empty()) return NotFound();
  for (const auto& row : rows) admin::NoteRead(route.table, row.row);
  if (one_value) {
    // The first cell found, with only its timestamp as a header.
    const storage::Cell& cell = rows.front().cells.front();
    HttpResponse response = Ok(std::string(kOctetStream), cell.value);
    response.headers.emplace_back("X-Timestamp", std::to_string(cell.timestamp));
    return response;
  }
  CellSetModel cells;
  for (const auto& row : rows) cells.rows.push_back(ToRowModel(row));
  return Ok(type, Encode(rep, cells));
}

HttpResponse RestService::PutRow(const HttpRequest& request, const Route& route) {
  RowSpec spec;
  std::string error;
  if (!ParseSpecOf(request, route, &spec, &error)) return SpecRefused(request);
  Representation rep;
  HttpResponse refusal;
  if (!ChooseRequest(request, &rep, &refusal)) return refusal;
  CellSetModel model;
  if (rep == Representation::kOctetStream) {
    // One value at the path's row and (smallest) column, or the X- headers'. HBase never reads
    // the path's time here: the cell gets X-Timestamp or the server's clock.
    // HBase takes the path's first column before it looks at X-Column, so a path without one
    // fails whatever the headers say.
    if (spec.columns.empty()) {
      return BadRequest(
          "java.lang.ArrayIndexOutOfBoundsException: Index 0 out of bounds for length 0\r\n");
    }
    CellModel cell;
    cell.column = spec.columns[0];
    if (request.HasHeader("X-Column")) cell.column = request.Header("X-Column");
    if (cell.column.empty()) return BadRequest("Column found to be null.\r\n");
    if (request.HasHeader("X-Timestamp")) {
      int64_t ts = 0;
      const std::string text = request.Header("X-Timestamp");
      if (!ParseLong(text, &ts)) {
        return BadRequest("java.lang.NumberFormatException: For input string: \"" + text +
                          "\"\r\n");
      }
      cell.timestamp = ts;
    }
    cell.value = request.body;
    RowModel row;
    row.key = request.HasHeader("X-Row") ? request.Header("X-Row") : spec.row;
    row.cells.push_back(std::move(cell));
    model.rows.push_back(std::move(row));
  } else {
    BodyStatus decoded = Decode(rep, request.body, &model);
    if (!decoded.ok()) return BodyRefusal(decoded);
  }
  // Rows the body leaves out are the path's; check=put and check=delete read cell columns as
  // given (they name the columns themselves).
  for (RowModel& row : model.rows) {
    if (row.key.empty()) row.key = spec.row;
  }
  const std::string* check = route.Param("check");
  if (check != nullptr && !check->empty()) {
    std::string kind = *check;
    std::transform(kind.begin(), kind.end(), kind.begin(), ::tolower);
    if (kind == "put") return CheckAndPut(model, route);
    if (kind == "delete") return CheckAndDelete(spec, model, route);
    if (kind == "append" || kind == "increment") {
      return ReadModifyWrite(kind, request, spec, model, route);
    }
    return Plain(400, "Invalid check value '" + *check + "'\r\n");
  }
  std::vector<storage::RowMutation> mutations;
  for (const RowModel& row : model.rows) {
    storage::RowMutation mutation;
    mutation.row = row.key;
    size_t next_path_column = 0;
    for (const CellModel& cell : row.cells) {
      // A cell without a column takes the path's columns in turn.
      std::string column = cell.column;
      if (column.empty() && next_path_column < spec.columns.size()) {
        column = spec.columns[next_path_column++];
      }
      if (column.empty()) return BadRequest("Column found to be null.\r\n");
      storage::ColumnMutation put;
      if (!SplitColumn(column, &put.family, &put.qualifier)) return BadRequest();
      put.timestamp = cell.timestamp.value_or(storage::kLatestTimestamp);
      put.value = cell.value;
      mutation.mutations.push_back(std::move(put));
    }
    mutations.push_back(std::move(mutation));
  }
  if (mutations.empty()) return Plain(200, "");
  Status s = store_->MutateRows(route.table, mutations);
  if (!s.ok()) return FromStatus(s);
  admin::NoteWrites(route.table, mutations.size(),
                    [&](size_t i) -> std::string_view { return mutations[i].row; });
  return Plain(200, "");
}

// check=put: the body's last cell is the (column, value) to compare; another cell must write
// that same column; every other cell is put with it.
HttpResponse RestService::CheckAndPut(const CellSetModel& model, const Route& route) {
  if (model.rows.size() != 1) return BadRequestSaying("Number of rows specified is not 1.\r\n");
  const RowModel& row = model.rows[0];
  if (row.key.empty() || row.cells.size() <= 1) {
    return BadRequestSaying("Either row key is null or no data found for columns specified.\r\n");
  }
  const CellModel& check = row.cells.back();
  std::string family;
  std::string qualifier;
  if (!SplitColumn(check.column, &family, &qualifier) || qualifier.empty()) {
    return BadRequestSaying("Column incorrectly specified.\r\n");
  }
  storage::RowMutation mutation;
  mutation.row = row.key;
  bool column_put = false;
  for (size_t i = 0; i + 1 < row.cells.size(); ++i) {
    const CellModel& cell = row.cells[i];
    if (cell.column.empty()) return BadRequestSaying("Column found to be null.\r\n");
    storage::ColumnMutation put;
    if (!SplitColumn(cell.column, &put.family, &put.qualifier)) return BadRequest();
    put.timestamp = cell.timestamp.value_or(storage::kLatestTimestamp);
    put.value = cell.value;
    mutation.mutations.push_back(std::move(put));
    if (cell.column == check.column) column_put = true;
  }
  if (!column_put) return BadRequestSaying("The column to put and check do not match.\r\n");
  return ApplyCheck(route, row.key, family, qualifier, check.value, mutation);
}

// check=delete: the last cell is the check; the cells before it are what goes (a family, or
// one version of a column); alone, the check deletes its own column (every version). The path's
// columns only stand in for a check cell without a column.
HttpResponse RestService::CheckAndDelete(const RowSpec& spec, const CellSetModel& model,
                                         const Route& route) {
  using storage::MutationType;
  if (model.rows.size() != 1) return BadRequestSaying("Number of rows specified is not 1.\r\n");
  const RowModel& row = model.rows[0];
  if (row.key.empty()) return BadRequestSaying("Row key found to be null.\r\n");
  if (row.cells.empty()) {
    // HBase reads the last cell of none.
    return BadRequest("java.lang.IndexOutOfBoundsException: Index -1 out of bounds for length 0\r\n");
  }
  const CellModel& check = row.cells.back();
  std::string check_column = check.column;
  if (check_column.empty()) {
    if (spec.columns.empty()) return BadRequestSaying("Column not specified for check.\r\n");
    check_column = spec.columns[0];
  }
  storage::RowMutation mutation;
  mutation.row = row.key;
  for (size_t i = 0; i + 1 < row.cells.size(); ++i) {
    const CellModel& cell = row.cells[i];
    if (cell.column.empty()) return BadRequestSaying("Column found to be null.\r\n");
    storage::ColumnMutation del;
    del.timestamp = cell.timestamp.value_or(storage::kLatestTimestamp);
    del.type = SplitColumn(cell.column, &del.family, &del.qualifier) ? MutationType::kDeleteVersion
                                                                     : MutationType::kDeleteFamily;
    mutation.mutations.push_back(std::move(del));
  }
  std::string family;
  std::string qualifier;
  if (!SplitColumn(check_column, &family, &qualifier)) {
    return BadRequestSaying("Column to check incorrectly specified.\r\n");
  }
  if (row.cells.size() == 1) {
    mutation.mutations.push_back(
        {MutationType::kDeleteColumn, family, qualifier, storage::kLatestTimestamp, ""});
  }
  return ApplyCheck(route, row.key, family, qualifier, check.value, mutation);
}

// 200 when the check matched and the mutation was applied, 304 when it did not.
HttpResponse RestService::ApplyCheck(const Route& route, const std::string& row,
                                     const std::string& family, const std::string& qualifier,
                                     const std::string& value,
                                     const storage::RowMutation& mutation) {
  bool applied = false;
  Status s = store_->CheckAndMutate(route.table, row, family, qualifier,
                                    storage::CompareOp::kEqual, value, mutation, &applied);
  if (!s.ok()) return FromStatus(s);
  if (applied) admin::NoteWrite(route.table, row);
  if (!applied) {
    // HBase's 304 carries its text type; the body ("Value not Modified") never goes out.
    HttpResponse not_modified = Plain(304, "");
    not_modified.content_type = "text/plain";
    return not_modified;
  }
  return Plain(200, "");
}

// check=append and check=increment: each cell's value is appended, or added as a decimal
// number. HBase answers 200 with no body unless ?rr=true asks for the result: then append
// answers the new cells and increment (as HBase does) the request's own cells.
HttpResponse RestService::ReadModifyWrite(const std::string& kind, const HttpRequest& request,
                                          const RowSpec& spec, const CellSetModel& model,
                                          const Route& route) {
  if (model.rows.size() != 1) return BadRequestSaying("Number of rows specified is not 1.\r\n");
  const RowModel& row = model.rows[0];
  if (row.key.empty()) return BadRequestSaying("Row key found to be null.\r\n");
  std::vector<std::pair<std::string, std::string>> columns;  // (family, qualifier)
  size_t next_path_column = 0;
  for (const CellModel& cell : row.cells) {
    std::string column = cell.column;
    if (column.empty() && next_path_column < spec.columns.size()) {
      column = spec.columns[next_path_column++];
    }
    if (column.empty()) return BadRequestSaying("Column found to be null.\r\n");
    std::string family;
    std::string qualifier;
    if (!SplitColumn(column, &family, &qualifier)) {
      return BadRequestSaying("Column incorrectly specified.\r\n");
    }
    columns.emplace_back(std::move(family), std::move(qualifier));
  }
  std::vector<storage::Cell> result;
  Status s;
  if (kind == "append") {
    std::vector<storage::ColumnAppend> appends;
    for (size_t i = 0; i < row.cells.size(); ++i) {
      storage::ColumnAppend append;
      append.family = columns[i].first;
      append.qualifier = columns[i].second;
      append.value = row.cells[i].value;
      appends.push_back(std::move(append));
    }
    s = store_->Append(route.table, row.key, appends, &result);
  } else {
    std::vector<storage::ColumnIncrement> increments;
    for (size_t i = 0; i < row.cells.size(); ++i) {
      storage::ColumnIncrement increment;
      increment.family = columns[i].first;
      increment.qualifier = columns[i].second;
      if (!ParseLong(row.cells[i].value, &increment.amount)) {
        return BadRequest("java.lang.NumberFormatException: For input string: \"" +
                          row.cells[i].value + "\"\r\n");
      }
      increments.push_back(std::move(increment));
    }
    s = store_->Increment(route.table, row.key, increments, &result);
  }
  if (!s.ok()) return FromStatus(s);
  admin::NoteWrite(route.table, row.key);
  const std::string* rr = route.Param("rr");
  std::string wanted = rr == nullptr ? "" : *rr;
  std::transform(wanted.begin(), wanted.end(), wanted.begin(), ::tolower);
  if (wanted != "true") return Plain(200, "");
  if (result.empty()) return Plain(304, "");
  CellSetModel cells;
  if (kind == "append") {
    storage::RowResult answer{row.key, std::move(result), false};
    cells.rows.push_back(ToRowModel(answer));
  } else {
    // The request's cells, with HBase's "latest" timestamp where they gave none.
    RowModel echo = row;
    for (CellModel& cell : echo.cells) {
      if (!cell.timestamp) cell.timestamp = storage::kLatestTimestamp;
    }
    cells.rows.push_back(std::move(echo));
  }
  auto [type, rep, refusal] = Negotiate(request, CellSetTypes());
  if (refusal) return *refusal;
  return Ok(type, Encode(rep, cells));
}

// HBase's Delete of a path: the row, families or columns named, every version or, with a
// "/TS" time, every version up to TS. A range or glob deletes its first row only.
void RestService::AppendDeletes(const RowSpec& spec, storage::RowMutation* mutation) {
  using storage::MutationType;
  const int64_t ts = spec.HasTimestamp() ? spec.end_time : storage::kLatestTimestamp;
  if (spec.columns.empty()) {
    mutation->mutations.push_back({MutationType::kDeleteRow, "", "", ts, ""});
    return;
  }
  for (const std::string& column : spec.columns) {
    storage::ColumnMutation del;
    del.timestamp = ts;
    del.type = SplitColumn(column, &del.family, &del.qualifier) ? MutationType::kDeleteColumn
                                                                : MutationType::kDeleteFamily;
    mutation->mutations.push_back(std::move(del));
  }
}

HttpResponse RestService::DeleteRow(const HttpRequest& request, const Route& route) {
  RowSpec spec;
  std::string error;
  if (!ParseSpecOf(request, route, &spec, &error)) return SpecRefused(request);
  storage::RowMutation mutation;
  mutation.row = spec.row;
  AppendDeletes(spec, &mutation);
  Status s = store_->Mutate(route.table, mutation);
  if (!s.ok()) return FromStatus(s);
  admin::NoteWrite(route.table, mutation.row);
  return Plain(200, "");
}

// /T/multiget?row=R1&row=R2[&v=N]: the rows found, in the order asked; 404 "No rows found."
// when none is. Each row value is a row path of its own ("ROW[/COLUMNS[/TIME]]"), read as the
// row resource reads one (URL-decoded again, base64 under the key encoding).
HttpResponse RestService::Multiget(const HttpRequest& request, const Route& route) {
  auto [type, rep, refusal] = Negotiate(request, CellSetTypes());
  if (refusal) return *refusal;
  int32_t max_versions = 1;
  if (const std::string* versions = route.Param("v")) {
    int64_t v = 0;
    if (!ParseLong(*versions, &v) || v < INT32_MIN || v > INT32_MAX) {
      return SpecRefused(request);
    }
    max_versions = static_cast<int32_t>(v);
  }
  std::string encoding_storage;
  const std::string* encoding = KeyEncodingOf(request, route, &encoding_storage);
  std::vector<RowSpec> specs;
  for (const std::string& param : route.Params("row")) {
    Route row_route;
    row_route.row_spec = param;
    RowSpec spec;
    std::string error;
    if (param.empty() || !ParseRowSpec(row_route, encoding, &spec, &error)) {
      return SpecRefused(request);
    }
    spec.max_versions = max_versions;
    specs.push_back(std::move(spec));
  }
  if (max_versions < 1 && !specs.empty()) {
    return Unavailable("java.io.IOException: versions must be positive\r\n");
  }
  CellSetModel cells;
  size_t bytes = 0;
  // HBase's table.get(List) sends one row as a single get and more as a batch, and they fail
  // differently: the single get's DoNotRetryIOException (missing table or family) is swallowed,
  // leaving the resource no results at all, so it fails in its container (500); the batch
  // wraps any failure in RetriesExhaustedWithDetailsException, which the resource answers as
  // its first cause (404 "Not found" for a missing table or family).
  const bool batch = specs.size() > 1;
  for (const RowSpec& spec : specs) {
    storage::RowResult result;
    Status s = store_->Get(route.table, spec.row, ReadSpecOf(spec), &result);
    if (!s.ok() && !batch && GetReadsAsNothing(s)) return SpecRefused(request);
    if (!s.ok()) return FromStatus(s);
    if (result.cells.empty()) continue;
    result.row = spec.row;
    bytes += RowBytes(result);
    if (bytes > ResultBudget()) return PastResultBytes();
    admin::NoteRead(route.table, result.row);
    cells.rows.push_back(ToRowModel(result));
  }
  if (cells.rows.empty()) return Plain(404, "No rows found.\r\n");
  return Ok(type, Encode(rep, cells));
}

}  // namespace hbemu::server::rest
