// The row resource (/T/ROW...) and multiget: reads, CellSet and single-value writes, deletes,
// and the check=put|delete|append|increment variants.

#include <algorithm>
#include <cerrno>
#include <cstdlib>

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
  if (spec.has_timestamp) {
    read.time_range.min = spec.timestamp;
    read.time_range.max = spec.timestamp == INT64_MAX ? INT64_MAX : spec.timestamp + 1;
  } else {
    read.time_range.min = spec.start_time;
    read.time_range.max = spec.end_time;
  }
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

}  // namespace

HttpResponse RestService::Row(const HttpRequest& request, const Route& route) {
  const std::string& method = request.method;
  if (method == "GET" || method == "HEAD") return GetRow(request, route);
  if (method == "PUT" || method == "POST") return PutRow(request, route);
  if (method == "DELETE") return DeleteRow(request, route);
  return MethodNotAllowed("DELETE,GET,OPTIONS,POST,PUT");
}

HttpResponse RestService::GetRow(const HttpRequest& request, const Route& route) {
  auto negotiated = NegotiateAccept(request.Header("Accept"), ProducesCells());
  if (!negotiated) return NotAcceptable();
  const std::string* chosen = &negotiated->content_type;
  RowSpec spec;
  std::string error;
  if (!ParseRowSpec(route, request.Header("Encoding") == "b64", &spec, &error)) {
    return BadRequest(error + "\r\n");
  }
  const storage::ReadSpec read = ReadSpecOf(spec);
  if (negotiated->representation == Representation::kOctetStream) {
    // One value: the newest cell of the one column named.
    std::string family;
    std::string qualifier;
    if (spec.prefix || spec.columns.size() != 1 ||
        !SplitColumn(spec.columns[0], &family, &qualifier)) {
      return BadRequest();
    }
    storage::RowResult result;
    Status s = store_->Get(route.table, spec.row, read, &result);
    if (!s.ok()) return FromStatus(s);
    if (result.cells.empty()) return NotFound();
    HttpResponse response = Ok(std::string(kOctetStream), result.cells.front().value);
    response.headers.emplace_back("X-Timestamp", std::to_string(result.cells.front().timestamp));
    return response;
  }
  const Representation rep = negotiated->representation;
  CellSetModel cells;
  if (spec.prefix) {
    storage::ScanSpec scan;
    scan.start_row = spec.row;
    scan.row_prefix = spec.row;
    scan.read = read;
    std::unique_ptr<storage::Scanner> scanner;
    Status s = store_->OpenScanner(route.table, scan, &scanner);
    if (!s.ok()) return FromStatus(s);
    size_t bytes = 0;
    while (true) {
      std::vector<storage::RowResult> rows;
      s = scanner->Next(100, &rows);
      if (!s.ok()) return FromStatus(s);
      if (rows.empty()) break;
      for (const auto& row : rows) {
        bytes += RowBytes(row);
        if (bytes > ResultBudget()) return Unavailable("the rows found exceed result_bytes\r\n");
        cells.rows.push_back(ToRowModel(row));
      }
    }
  } else {
    storage::RowResult result;
    Status s = store_->Get(route.table, spec.row, read, &result);
    if (!s.ok()) return FromStatus(s);
    if (!result.cells.empty()) {
      result.row = spec.row;
      cells.rows.push_back(ToRowModel(result));
    }
  }
  if (cells.rows.empty()) return NotFound();
  return Ok(*chosen, Encode(rep, cells));
}

HttpResponse RestService::PutRow(const HttpRequest& request, const Route& route) {
  RowSpec spec;
  std::string error;
  if (!ParseRowSpec(route, request.Header("Encoding") == "b64", &spec, &error)) {
    return BadRequest(error + "\r\n");
  }
  Representation rep;
  HttpResponse refusal;
  if (!ChooseRequest(request, &rep, &refusal)) return refusal;
  CellSetModel model;
  if (rep == Representation::kOctetStream) {
    // One value; the row, column and time from the X- headers or else the path.
    CellModel cell;
    cell.column = spec.columns.empty() ? std::string() : spec.columns[0];
    if (request.HasHeader("X-Column")) cell.column = request.Header("X-Column");
    if (cell.column.empty()) return BadRequest("Column found to be null.\r\n");
    if (spec.has_timestamp) cell.timestamp = spec.timestamp;
    if (request.HasHeader("X-Timestamp")) {
      int64_t ts = 0;
      if (!ParseLong(request.Header("X-Timestamp"), &ts)) return BadRequest();
      cell.timestamp = ts;
    }
    cell.value = request.body;
    RowModel row;
    row.key = request.HasHeader("X-Row") ? request.Header("X-Row") : spec.row;
    row.cells.push_back(std::move(cell));
    model.rows.push_back(std::move(row));
  } else {
    BodyStatus decoded = Decode(rep, request.body, &model);
    if (!decoded.ok()) {
      return decoded.http_status() == 400 ? BadRequest() : Plain(decoded.http_status(), "");
    }
  }
  // Rows and columns the body leaves out come from the path.
  for (RowModel& row : model.rows) {
    if (row.key.empty()) row.key = spec.row;
    for (CellModel& cell : row.cells) {
      if (cell.column.empty() && !spec.columns.empty()) cell.column = spec.columns[0];
    }
  }
  const std::string* check = route.Param("check");
  if (check != nullptr && !check->empty()) {
    std::string kind = *check;
    std::transform(kind.begin(), kind.end(), kind.begin(), ::tolower);
    if (kind == "put" || kind == "delete") return CheckAndMutate(kind, spec, model, route);
    if (kind == "append" || kind == "increment") return ReadModifyWrite(kind, model, route);
    return Plain(400, "Invalid check value '" + *check + "'\r\n");
  }
  std::vector<storage::RowMutation> mutations;
  for (const RowModel& row : model.rows) {
    storage::RowMutation mutation;
    mutation.row = row.key;
    for (const CellModel& cell : row.cells) {
      storage::ColumnMutation put;
      if (!SplitColumn(cell.column, &put.family, &put.qualifier)) return BadRequest();
      put.timestamp = cell.timestamp.value_or(storage::kLatestTimestamp);
      put.value = cell.value;
      mutation.mutations.push_back(std::move(put));
    }
    mutations.push_back(std::move(mutation));
  }
  if (mutations.empty()) return Plain(200, "");
  Status s = store_->MutateRows(route.table, mutations);
  if (!s.ok()) return FromStatus(s);
  return Plain(200, "");
}

// check=put and check=delete: the body's last cell is the value to compare; a put applies the
// other cells, a delete what the path names (the row, or its columns).
HttpResponse RestService::CheckAndMutate(const std::string& kind, const RowSpec& spec,
                                         const CellSetModel& model, const Route& route) {
  if (model.rows.size() != 1 || model.rows[0].cells.empty()) return BadRequest();
  const RowModel& row = model.rows[0];
  const CellModel& check = row.cells.back();
  std::string family;
  std::string qualifier;
  if (!SplitColumn(check.column, &family, &qualifier)) return BadRequest();
  storage::RowMutation mutation;
  mutation.row = row.key;
  if (kind == "put") {
    if (row.cells.size() < 2) return BadRequest();
    for (size_t i = 0; i + 1 < row.cells.size(); ++i) {
      storage::ColumnMutation put;
      if (!SplitColumn(row.cells[i].column, &put.family, &put.qualifier)) return BadRequest();
      put.timestamp = row.cells[i].timestamp.value_or(storage::kLatestTimestamp);
      put.value = row.cells[i].value;
      mutation.mutations.push_back(std::move(put));
    }
  } else {
    AppendDeletes(spec, &mutation);
  }
  bool applied = false;
  Status s = store_->CheckAndMutate(route.table, row.key, family, qualifier,
                                    storage::CompareOp::kEqual, check.value, mutation, &applied);
  if (!s.ok()) return FromStatus(s);
  if (!applied) return Plain(304, "");
  return Plain(200, "");
}

// check=append and check=increment: each cell's value is appended, or added as a decimal
// number; the answer is the new cells.
HttpResponse RestService::ReadModifyWrite(const std::string& kind, const CellSetModel& model,
                                          const Route& route) {
  if (model.rows.size() != 1) return BadRequest();
  const RowModel& row = model.rows[0];
  std::vector<storage::Cell> result;
  Status s;
  if (kind == "append") {
    std::vector<storage::ColumnAppend> appends;
    for (const CellModel& cell : row.cells) {
      storage::ColumnAppend append;
      if (!SplitColumn(cell.column, &append.family, &append.qualifier)) return BadRequest();
      append.value = cell.value;
      appends.push_back(std::move(append));
    }
    s = store_->Append(route.table, row.key, appends, &result);
  } else {
    std::vector<storage::ColumnIncrement> increments;
    for (const CellModel& cell : row.cells) {
      storage::ColumnIncrement increment;
      if (!SplitColumn(cell.column, &increment.family, &increment.qualifier)) return BadRequest();
      if (!ParseLong(cell.value, &increment.amount)) {
        return BadRequest("java.lang.NumberFormatException: For input string: \"" + cell.value +
                          "\"\r\n");
      }
      increments.push_back(std::move(increment));
    }
    s = store_->Increment(route.table, row.key, increments, &result);
  }
  if (!s.ok()) return FromStatus(s);
  storage::RowResult answer{row.key, std::move(result), false};
  CellSetModel cells;
  cells.rows.push_back(ToRowModel(answer));
  HttpResponse response = Ok("application/json", Encode(Representation::kJson, cells));
  return response;
}

void RestService::AppendDeletes(const RowSpec& spec, storage::RowMutation* mutation) {
  using storage::MutationType;
  const int64_t ts = spec.has_timestamp ? spec.timestamp : storage::kLatestTimestamp;
  if (spec.columns.empty()) {
    mutation->mutations.push_back({MutationType::kDeleteRow, "", "", ts, ""});
    return;
  }
  for (const std::string& column : spec.columns) {
    storage::ColumnMutation del;
    del.timestamp = ts;
    if (SplitColumn(column, &del.family, &del.qualifier)) {
      // With a timestamp HBase deletes that one version, without one every version.
      del.type = spec.has_timestamp ? MutationType::kDeleteVersion : MutationType::kDeleteColumn;
    } else {
      del.type = MutationType::kDeleteFamily;
    }
    mutation->mutations.push_back(std::move(del));
  }
}

HttpResponse RestService::DeleteRow(const HttpRequest& request, const Route& route) {
  RowSpec spec;
  std::string error;
  if (!ParseRowSpec(route, request.Header("Encoding") == "b64", &spec, &error)) {
    return BadRequest(error + "\r\n");
  }
  storage::RowMutation mutation;
  mutation.row = spec.row;
  AppendDeletes(spec, &mutation);
  Status s = store_->Mutate(route.table, mutation);
  if (!s.ok()) return FromStatus(s);
  return Plain(200, "");
}

// /T/multiget?row=R1&row=R2[&v=N]: the rows found, in the order asked; 404 when none is.
HttpResponse RestService::Multiget(const HttpRequest& request, const Route& route) {
  std::string type;
  Representation rep;
  HttpResponse refusal;
  if (!ChooseResponse(request, CellSetTypes(), &type, &rep, &refusal)) return refusal;
  storage::ReadSpec read;
  if (const std::string* versions = route.Param("v")) {
    int64_t v = 0;
    if (!ParseLong(*versions, &v) || v < 1 || v > INT32_MAX) return BadRequest();
    read.max_versions = static_cast<int32_t>(v);
  }
  const bool b64 = request.Header("Encoding") == "b64";
  CellSetModel cells;
  size_t bytes = 0;
  for (const std::string& param : route.Params("row")) {
    // A row may name columns after a '/', as a row path does. The query value is decoded
    // already.
    RowSpec spec;
    std::string error;
    spec.row = param;
    std::string columns_part;
    const size_t slash = param.find('/');
    if (slash != std::string::npos) {
      spec.row = param.substr(0, slash);
      columns_part = param.substr(slash + 1);
    }
    if (b64) {
      Route encoded;
      encoded.row_spec = spec.row;
      RowSpec decoded;
      if (!ParseRowSpec(encoded, true, &decoded, &error)) return BadRequest();
      spec.row = decoded.row;
    }
    storage::ReadSpec row_read = read;
    size_t begin = 0;
    while (begin < columns_part.size()) {
      size_t end = columns_part.find(',', begin);
      if (end == std::string::npos) end = columns_part.size();
      std::string family;
      std::string qualifier;
      if (SplitColumn(columns_part.substr(begin, end - begin), &family, &qualifier)) {
        row_read.columns.AddColumn(family, qualifier);
      } else if (!family.empty()) {
        row_read.columns.AddFamily(family);
      }
      begin = end + 1;
    }
    storage::RowResult result;
    Status s = store_->Get(route.table, spec.row, row_read, &result);
    if (!s.ok()) return FromStatus(s);
    if (result.cells.empty()) continue;
    result.row = spec.row;
    bytes += RowBytes(result);
    if (bytes > ResultBudget()) return Unavailable("the rows found exceed result_bytes\r\n");
    cells.rows.push_back(ToRowModel(result));
  }
  if (cells.rows.empty()) return NotFound();
  return Ok(type, Encode(rep, cells));
}

}  // namespace hbemu::server::rest
