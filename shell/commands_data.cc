// Row commands: put, get, delete, deleteall, incr, append, get_counter (scan and count are in
// commands_scan.cc). Thrift1 carries what it expresses exactly (deleteall, incr, get_counter);
// put, get, delete and append need Thrift2: the empty qualifier ("f" is "f:"), cell TTLs as
// HBase's 8-byte attribute, time ranges, versions, filters and delete types.

#include <chrono>
#include <limits>
#include <map>

#include "shell/bytes_text.h"
#include "shell/cell_format.h"
#include "shell/data_args.h"
#include "shell/shell.h"

namespace hbemu::shell {
namespace {

namespace t1 = hbemu::thrift;
namespace t2 = hbemu::thrift2;

constexpr int64_t kLatestTimestamp = std::numeric_limits<int64_t>::max();

std::string EncodeLong(int64_t v) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
  return out;
}

void Put(CommandContext& ctx) {
  if (ctx.args.size() < 4 || ctx.args.size() > 6) {
    throw ShellError("wrong number of arguments (given " + std::to_string(ctx.args.size()) +
                     ", expected 4..6)");
  }
  std::string table = StringArg(ctx, 0, "table");
  t2::TPut put;
  put.row = StringArg(ctx, 1, "row");
  ColumnName c = ParseColumn(StringArg(ctx, 2, "column"));
  t2::TColumnValue cv;
  cv.family = c.family;
  cv.qualifier = c.qualifier;  // "f" is the empty qualifier, as Put.addColumn(f, null, v)
  cv.value = StringArg(ctx, 3, "value");
  if (ctx.args.size() > 4 && !ctx.args[4].IsHash()) put.__set_timestamp(IntOf(ctx.args[4], "timestamp"));
  put.columnValues.push_back(cv);
  const Value* opts = TrailingHash(ctx, 4);
  std::map<std::string, std::string> attributes = Attributes(opts);
  // Put.setTTL stores the TTL as the "_ttl" attribute, an 8-byte big-endian long (Bytes.toBytes).
  if (opts && opts->Find("TTL")) attributes["_ttl"] = EncodeLong(IntOf(*opts->Find("TTL"), "TTL"));
  if (!attributes.empty()) put.__set_attributes(attributes);
  ctx.connection.Thrift2().put(table, put);
}

void Get(CommandContext& ctx) {
  if (ctx.args.size() < 2) {
    throw ShellError("wrong number of arguments (given " + std::to_string(ctx.args.size()) +
                     ", expected 2+)");
  }
  std::string table = StringArg(ctx, 0, "table");
  CellPrinter printer;
  const Value* filter = nullptr;
  t2::TGet get;
  get.row = StringArg(ctx, 1, "row");
  std::vector<std::string> columns;
  std::string parse_failure;
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    const Value& a = ctx.args[i];
    if (a.IsHash()) {
      // HBase's get reads a hash as columns, a time or attributes: with none of them, what is
      // left (VERSIONS alone, RAW, an unknown key) fails there, after the header.
      Value rest;
      rest.kind = Value::Kind::kHash;
      for (const auto& [k, v] : a.pairs) {
        const std::string key = k.ToS();
        if (key != "MAXLENGTH" && key != "FILTER" && key != "CONSISTENCY" &&
            key != "REGION_REPLICA_ID" && key != "FORMATTER" && key != "FORMATTER_CLASS") {
          rest.pairs.emplace_back(k, v);
        }
      }
      if (!rest.pairs.empty() && !a.Find("COLUMN") && !a.Find("COLUMNS") && !a.Find("ATTRIBUTES") &&
          !a.Find("AUTHORIZATIONS") && !a.Find("TIMESTAMP") && !a.Find("TIMERANGE")) {
        parse_failure = "Failed parse of " + rest.Inspect() + ", Hash";
      }
      if (const Value* c = a.Find("COLUMN")) columns = ColumnList(*c);
      if (const Value* c = a.Find("COLUMNS")) columns = ColumnList(*c);
      if (const Value* v = a.Find("VERSIONS")) get.__set_maxVersions(IntOf(*v, "VERSIONS"));
      if (const Value* v = a.Find("TIMESTAMP")) get.__set_timestamp(IntOf(*v, "TIMESTAMP"));
      if (const Value* v = a.Find("TIMERANGE")) get.__set_timeRange(TimeRange(*v));
      if (const Value* v = a.Find("CONSISTENCY")) {
        get.__set_consistency(v->ToS() == "TIMELINE" ? t2::TConsistency::TIMELINE
                                                      : t2::TConsistency::STRONG);
      }
      if (const Value* v = a.Find("REGION_REPLICA_ID")) {
        get.__set_targetReplicaId(static_cast<int32_t>(IntOf(*v, "REGION_REPLICA_ID")));
      }
      if (const Value* v = a.Find("FILTER")) filter = v;
      auto attrs = Attributes(&a);
      if (!attrs.empty()) get.__set_attributes(attrs);
      PrinterOptions(a, &printer);
    } else {
      for (const auto& c : ColumnList(a)) columns.push_back(c);
    }
  }
  if (!columns.empty()) {
    std::vector<t2::TColumn> cols;
    for (const auto& c : columns) cols.push_back(ToTColumn(c, &printer));
    get.__set_columns(cols);
  }
  ctx.out.Header("COLUMN", "CELL");  // HBase prints it before the call, errors come after it
  if (!parse_failure.empty()) throw ShellError(parse_failure);
  if (filter) get.__set_filterString(CheckedFilter(*filter));
  t2::TResult result;
  ctx.connection.Thrift2().get(result, table, get);
  for (const auto& cv : result.columnValues) {
    ctx.out.Row(ColumnText(printer, cv), CellText(printer, cv));
  }
  ctx.out.Footer(result.columnValues.empty() ? 0 : 1);
}

// One Delete as table.rb's _createdelete_internal builds it: `all_versions` (deleteall) removes
// every version at or before `ts` (addColumns / addFamily), otherwise (delete) only the version
// at `ts` (addColumn / addFamilyVersion). "f" names the family, "f:" the empty qualifier.
t2::TDelete MakeDelete(const std::string& row, const std::string& column, int64_t ts,
                       bool all_versions) {
  t2::TDelete del;
  del.row = row;
  if (ts != kLatestTimestamp) del.__set_timestamp(ts);
  if (column.empty()) return del;  // the whole row
  ColumnName c = ParseColumn(column);
  t2::TColumn col;
  col.family = c.family;
  if (c.has_qualifier) col.__set_qualifier(c.qualifier);
  if (ts != kLatestTimestamp) col.__set_timestamp(ts);
  del.__set_columns({col});
  if (c.has_qualifier) {
    del.__set_deleteType(all_versions ? t2::TDeleteType::DELETE_COLUMNS
                                      : t2::TDeleteType::DELETE_COLUMN);
  } else {
    del.__set_deleteType(all_versions ? t2::TDeleteType::DELETE_FAMILY
                                      : t2::TDeleteType::DELETE_FAMILY_VERSION);
    // Thrift2 requires a timestamp for a family-version delete; HBase's region server turns
    // the shell's LATEST_TIMESTAMP into "now", so "now" it is.
    if (!all_versions && ts == kLatestTimestamp) {
      col.__set_timestamp(std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count());
      del.columns[0] = col;
    }
  }
  return del;
}

// delete/deleteall 't', row-or-{ROWPREFIXFILTER => p}, [column, [ts]], [{ATTRIBUTES => ...}]
void RunDelete(CommandContext& ctx, bool all_versions) {
  std::string table = StringArg(ctx, 0, "table");
  const Value& row = Arg(ctx, 1, "row");
  std::string column;
  int64_t ts = kLatestTimestamp;
  size_t i = 2;
  if (ctx.args.size() > i && ctx.args[i].IsString()) column = ctx.args[i++].text;
  if (ctx.args.size() > i && ctx.args[i].IsInt()) ts = ctx.args[i++].integer;
  auto attrs = Attributes(TrailingHash(ctx, 2));
  auto& client = ctx.connection.Thrift2();
  if (!row.IsHash()) {
    t2::TDelete del = MakeDelete(row.ToS(), column, ts, all_versions);
    if (!attrs.empty()) del.__set_attributes(attrs);
    client.deleteSingle(table, del);
    return;
  }
  // deleteall 't', {ROWPREFIXFILTER => 'p'}: every row of the prefix, in batches of CACHE.
  const Value* prefix = row.Find("ROWPREFIXFILTER");
  if (prefix == nullptr) throw ShellError("Row must be a String or a Hash with ROWPREFIXFILTER");
  int64_t cache = 100;
  if (const Value* v = row.Find("CACHE")) cache = IntOf(*v, "CACHE");
  t2::TScan scan;
  scan.__set_startRow(prefix->ToS());
  scan.__set_stopRow(PrefixStop(prefix->ToS()));
  scan.__set_filterString("FirstKeyOnlyFilter() AND KeyOnlyFilter()");
  std::vector<t2::TDelete> batch;
  auto flush = [&] {
    std::vector<t2::TDelete> failed;
    if (!batch.empty()) client.deleteMultiple(failed, table, batch);
    batch.clear();
  };
  ForEachRow(ctx, table, scan, -1, 100, [&](const t2::TResult& r, long) {
    batch.push_back(MakeDelete(r.row, column, ts, all_versions));
    if (!attrs.empty()) batch.back().__set_attributes(attrs);
    if (static_cast<int64_t>(batch.size()) >= cache) flush();
  });
  flush();
}

void Delete(CommandContext& ctx) {
  if (ctx.args.size() < 3) {
    throw ShellError("wrong number of arguments (given " + std::to_string(ctx.args.size()) +
                     ", expected 3..5)");
  }
  RunDelete(ctx, false);
}

void DeleteAll(CommandContext& ctx) {
  if (ctx.args.size() < 2) {
    throw ShellError("wrong number of arguments (given " + std::to_string(ctx.args.size()) +
                     ", expected 2..5)");
  }
  RunDelete(ctx, true);
}

void Append(CommandContext& ctx) {
  if (ctx.args.size() < 4 || ctx.args.size() > 5) {
    throw ShellError("wrong number of arguments (given " + std::to_string(ctx.args.size()) +
                     ", expected 4..5)");
  }
  std::string table = StringArg(ctx, 0, "table");
  t2::TAppend append;
  append.row = StringArg(ctx, 1, "row");
  ColumnName c = ParseColumn(StringArg(ctx, 2, "column"));
  t2::TColumnValue cv;
  cv.family = c.family;
  cv.qualifier = c.qualifier;
  cv.value = StringArg(ctx, 3, "value");
  append.columns.push_back(cv);
  const Value* opts = TrailingHash(ctx, 4);
  auto attrs = Attributes(opts);
  if (opts && opts->Find("TTL")) attrs["_ttl"] = EncodeLong(IntOf(*opts->Find("TTL"), "TTL"));
  if (!attrs.empty()) append.__set_attributes(attrs);
  append.__set_returnResults(true);
  t2::TResult result;
  ctx.connection.Thrift2().append(result, table, append);
  if (result.columnValues.empty()) return;
  ctx.out.Line("CURRENT VALUE = " + ToStringBinary(result.columnValues[0].value));
}

void Incr(CommandContext& ctx) {
  std::string table = StringArg(ctx, 0, "table");
  std::string row = StringArg(ctx, 1, "row");
  std::string column = StringArg(ctx, 2, "column");
  int64_t by = 1;
  if (ctx.args.size() > 3 && !ctx.args[3].IsHash()) by = IntOf(ctx.args[3], "value");
  int64_t value = ctx.connection.Thrift1().atomicIncrement(table, row, column, by);
  ctx.out.Line("COUNTER VALUE = " + std::to_string(value));
}

void GetCounter(CommandContext& ctx) {
  std::string table = StringArg(ctx, 0, "table");
  std::string row = StringArg(ctx, 1, "row");
  std::string column = StringArg(ctx, 2, "column");
  std::vector<t1::TCell> cells;
  ctx.connection.Thrift1().get(cells, table, row, column, {});
  if (cells.empty()) {
    ctx.out.Line("No counter found at specified coordinates");
    return;
  }
  int64_t value = 0;
  if (!DecodeLong(cells[0].value, &value)) {
    throw ShellError("offset (0) + length (8) exceed the capacity of the array: " +
                     std::to_string(cells[0].value.size()));
  }
  ctx.out.Line("COUNTER VALUE = " + std::to_string(value));
}

}  // namespace

void AddDataCommands(CommandTable* t) {
  auto add = [t](const char* name, std::function<void(CommandContext&)> run, const char* help) {
    AddDmlCommand(t, name, std::move(run), help);
  };
  add("put", Put,
      "Put a cell 'value' at specified table/row/column and optionally timestamp coordinates.\n"
      "  hbase> put 'ns1:t1', 'r1', 'c1', 'value'\n"
      "  hbase> put 't1', 'r1', 'c1', 'value', ts1\n"
      "  hbase> put 't1', 'r1', 'c1', 'value', {ATTRIBUTES=>{'mykey'=>'myvalue'}}\n"
      "  hbase> put 't1', 'r1', 'c1', 'value', ts1, {TTL => 60000}");
  add("get", Get,
      "Get row or cell contents; pass table name, row, and optionally a dictionary of column(s),\n"
      "timestamp, timerange, versions and a filter string.\n"
      "  hbase> get 't1', 'r1'\n"
      "  hbase> get 't1', 'r1', {TIMERANGE => [ts1, ts2]}\n"
      "  hbase> get 't1', 'r1', {COLUMN => 'c1'}\n"
      "  hbase> get 't1', 'r1', {COLUMN => ['c1', 'c2', 'c3']}\n"
      "  hbase> get 't1', 'r1', {COLUMN => 'c1', TIMESTAMP => ts1, VERSIONS => 4}\n"
      "  hbase> get 't1', 'r1', {FILTER => \"ValueFilter(=, 'binary:abc')\"}\n"
      "  hbase> get 't1', 'r1', 'c1', 'c2'\n"
      "  hbase> get 't1', 'r1', ['c1', 'c2']");
  add("delete", Delete,
      "Put a delete cell value at specified table/row/column and optionally timestamp.\n"
      "  hbase> delete 'ns1:t1', 'r1', 'c1', ts1\n"
      "  hbase> delete 't1', 'r1', 'c1'");
  add("deleteall", DeleteAll,
      "Delete all cells in a given row; pass a table name, row, and optionally a column and\n"
      "timestamp.\n"
      "  hbase> deleteall 'ns1:t1', 'r1'\n"
      "  hbase> deleteall 't1', 'r1', 'c1'\n"
      "  hbase> deleteall 't1', 'r1', 'c1', ts1\n"
      "  hbase> deleteall 't1', {ROWPREFIXFILTER => 'prefix'}\n"
      "  hbase> deleteall 't1', {ROWPREFIXFILTER => 'prefix', CACHE => 100}, 'c1'");
  add("append", Append,
      "Appends a cell 'value' at specified table/row/column coordinates.\n"
      "  hbase> append 't1', 'r1', 'c1', 'value', ATTRIBUTES=>{'mykey'=>'myvalue'}\n"
      "  hbase> append 't1', 'r1', 'c1', 'value', {VISIBILITY=>'PRIVATE|SECRET'}");
  add("incr", Incr,
      "Increments a cell 'value' at specified table/row/column coordinates.\n"
      "  hbase> incr 'ns1:t1', 'r1', 'c1'\n"
      "  hbase> incr 't1', 'r1', 'c1', 10");
  add("get_counter", GetCounter,
      "Return a counter cell value at specified table/row/column coordinates.\n"
      "  hbase> get_counter 'ns1:t1', 'r1', 'c1'");
}

}  // namespace hbemu::shell
