// Row commands: put, get, scan, delete, deleteall, incr, get_counter, count.
// Thrift1 carries what it expresses exactly (put, deleteall, incr, get_counter); get, scan,
// delete and count need Thrift2's time ranges, versions, filters and delete types.

#include <limits>
#include <map>

#include "shell/bytes_text.h"
#include "shell/shell.h"

namespace hbemu::shell {
namespace {

namespace t1 = hbemu::thrift;
namespace t2 = hbemu::thrift2;

constexpr int64_t kLatestTimestamp = std::numeric_limits<int64_t>::max();

std::map<std::string, std::string> Attributes(const Value* hash) {
  std::map<std::string, std::string> out;
  if (hash == nullptr) return out;
  const Value* attrs = hash->Find("ATTRIBUTES");
  if (attrs == nullptr) return out;
  if (!attrs->IsHash()) throw ShellError("Attributes must be a Hash type");
  for (const auto& [k, v] : attrs->pairs) out[k.ToS()] = v.ToS();
  return out;
}

// The trailing {…} argument at index >= from, if any.
const Value* TrailingHash(const CommandContext& ctx, size_t from) {
  if (ctx.args.size() > from && ctx.args.back().IsHash()) return &ctx.args.back();
  return nullptr;
}

t2::TColumn ToTColumn(const std::string& column) {
  ColumnName c = ParseColumn(column);
  t2::TColumn col;
  col.family = c.family;
  if (c.has_qualifier) col.__set_qualifier(c.qualifier);
  return col;
}

std::vector<std::string> ColumnList(const Value& v) {
  std::vector<std::string> out;
  if (v.IsArray()) {
    for (const auto& item : v.items) out.push_back(item.ToS());
  } else if (v.IsString()) {
    out.push_back(v.text);
  } else {
    throw ShellError("COLUMNS must be specified as a String or an Array");
  }
  return out;
}

t2::TTimeRange TimeRange(const Value& v) {
  if (!v.IsArray() || v.items.size() != 2) {
    throw ShellError("TIMERANGE must be an Array of two timestamps");
  }
  t2::TTimeRange range;
  range.minStamp = IntOf(v.items[0], "TIMERANGE");
  range.maxStamp = IntOf(v.items[1], "TIMERANGE");
  return range;
}

// "timestamp=N, value=V" as HBase's shell prints a cell.
std::string CellText(const t2::TColumnValue& cv) {
  return "timestamp=" + std::to_string(cv.timestamp) + ", value=" + ToStringBinary(cv.value);
}

std::string ColumnText(const t2::TColumnValue& cv) {
  return ToStringBinary(cv.family) + ":" + ToStringBinary(cv.qualifier);
}

void Put(CommandContext& ctx) {
  std::string table = StringArg(ctx, 0, "table");
  std::string row = StringArg(ctx, 1, "row");
  std::string column = StringArg(ctx, 2, "column");
  std::string value = StringArg(ctx, 3, "value");
  int64_t ts = kLatestTimestamp;
  if (ctx.args.size() > 4 && !ctx.args[4].IsHash()) ts = IntOf(ctx.args[4], "timestamp");
  const Value* opts = TrailingHash(ctx, 4);
  std::map<std::string, std::string> attributes = Attributes(opts);
  if (opts && opts->Find("TTL")) attributes["_ttl"] = std::to_string(IntOf(*opts->Find("TTL"), "TTL"));
  t1::Mutation m;
  m.column = column;
  m.value = value;
  ctx.connection.Thrift1().mutateRowTs(table, row, {m}, ts, attributes);
}

void Get(CommandContext& ctx) {
  std::string table = StringArg(ctx, 0, "table");
  t2::TGet get;
  get.row = StringArg(ctx, 1, "row");
  std::vector<std::string> columns;
  for (size_t i = 2; i < ctx.args.size(); ++i) {
    const Value& a = ctx.args[i];
    if (a.IsHash()) {
      if (const Value* c = a.Find("COLUMN")) columns = ColumnList(*c);
      if (const Value* c = a.Find("COLUMNS")) columns = ColumnList(*c);
      if (const Value* v = a.Find("VERSIONS")) get.__set_maxVersions(IntOf(*v, "VERSIONS"));
      if (const Value* v = a.Find("TIMESTAMP")) get.__set_timestamp(IntOf(*v, "TIMESTAMP"));
      if (const Value* v = a.Find("TIMERANGE")) get.__set_timeRange(TimeRange(*v));
      if (const Value* v = a.Find("FILTER")) {
        if (!v->IsString()) throw ShellError("FILTER must be a filter string");
        get.__set_filterString(v->text);
      }
      auto attrs = Attributes(&a);
      if (!attrs.empty()) get.__set_attributes(attrs);
    } else {
      for (const auto& c : ColumnList(a)) columns.push_back(c);
    }
  }
  if (!columns.empty()) {
    std::vector<t2::TColumn> cols;
    for (const auto& c : columns) cols.push_back(ToTColumn(c));
    get.__set_columns(cols);
  }
  t2::TResult result;
  ctx.connection.Thrift2().get(result, table, get);
  ctx.out.Header("COLUMN", "CELL");
  for (const auto& cv : result.columnValues) ctx.out.Row(ColumnText(cv), CellText(cv));
  ctx.out.Footer(result.columnValues.empty() ? 0 : 1);
}

// The stop row of a prefix scan: the prefix with its last byte below 0xFF incremented.
std::string PrefixStop(std::string prefix) {
  while (!prefix.empty()) {
    unsigned char last = static_cast<unsigned char>(prefix.back());
    if (last != 0xFF) {
      prefix.back() = static_cast<char>(last + 1);
      return prefix;
    }
    prefix.pop_back();
  }
  return "";
}

struct ScanSpec {
  t2::TScan scan;
  int64_t limit = -1;
};

ScanSpec ScanFromHash(const Value* opts) {
  ScanSpec spec;
  if (opts == nullptr) return spec;
  t2::TScan& scan = spec.scan;
  for (const auto& [k, v] : opts->pairs) {
    std::string key = k.ToS();
    if (key == "STARTROW" || key == "STOPROW" || key == "ROWPREFIXFILTER" || key == "LIMIT" ||
        key == "COLUMNS" || key == "COLUMN" || key == "VERSIONS" || key == "REVERSED" ||
        key == "TIMERANGE" || key == "TIMESTAMP" || key == "FILTER" || key == "CACHE" ||
        key == "CACHE_BLOCKS" || key == "ATTRIBUTES" || key == "MAXLENGTH") {
      continue;
    }
    throw ShellError("Unsupported scan option " + key);
  }
  if (const Value* v = opts->Find("STARTROW")) scan.__set_startRow(v->ToS());
  if (const Value* v = opts->Find("STOPROW")) scan.__set_stopRow(v->ToS());
  if (const Value* v = opts->Find("ROWPREFIXFILTER")) {
    // As Scan.setRowPrefixFilter: it replaces STARTROW and STOPROW.
    scan.__set_startRow(v->ToS());
    scan.__set_stopRow(PrefixStop(v->ToS()));
  }
  const Value* cols = opts->Find("COLUMNS");
  if (cols == nullptr) cols = opts->Find("COLUMN");
  if (cols) {
    std::vector<t2::TColumn> list;
    for (const auto& c : ColumnList(*cols)) list.push_back(ToTColumn(c));
    scan.__set_columns(list);
  }
  if (const Value* v = opts->Find("VERSIONS")) scan.__set_maxVersions(IntOf(*v, "VERSIONS"));
  if (const Value* v = opts->Find("REVERSED")) scan.__set_reversed(v->kind == Value::Kind::kBool && v->boolean);
  if (const Value* v = opts->Find("TIMESTAMP")) {
    t2::TTimeRange range;
    range.minStamp = IntOf(*v, "TIMESTAMP");
    range.maxStamp = range.minStamp + 1;
    scan.__set_timeRange(range);
  }
  if (const Value* v = opts->Find("TIMERANGE")) scan.__set_timeRange(TimeRange(*v));
  if (const Value* v = opts->Find("FILTER")) {
    if (!v->IsString()) throw ShellError("FILTER must be a filter string");
    scan.__set_filterString(v->text);
  }
  if (const Value* v = opts->Find("CACHE")) scan.__set_caching(IntOf(*v, "CACHE"));
  if (const Value* v = opts->Find("CACHE_BLOCKS")) scan.__set_cacheBlocks(v->boolean);
  if (const Value* v = opts->Find("LIMIT")) {
    spec.limit = IntOf(*v, "LIMIT");
    if (spec.limit > 0) scan.__set_limit(static_cast<int32_t>(spec.limit));
  }
  auto attrs = Attributes(opts);
  if (!attrs.empty()) scan.__set_attributes(attrs);
  return spec;
}

// Runs `scan` and calls `on_row` for each row until it returns false or `limit` rows were seen.
template <typename OnRow>
long ForEachRow(CommandContext& ctx, const std::string& table, const t2::TScan& scan,
                int64_t limit, int batch, OnRow on_row) {
  auto& client = ctx.connection.Thrift2();
  int32_t id = client.openScanner(table, scan);
  long rows = 0;
  try {
    bool more = true;
    while (more) {
      std::vector<t2::TResult> results;
      client.getScannerRows(results, id, batch);
      if (results.empty()) break;
      for (const auto& r : results) {
        on_row(r, rows + 1);
        ++rows;
        if (limit > 0 && rows >= limit) {
          more = false;
          break;
        }
      }
    }
  } catch (...) {
    try {
      client.closeScanner(id);
    } catch (...) {
    }
    throw;
  }
  client.closeScanner(id);
  return rows;
}

void Scan(CommandContext& ctx) {
  std::string table = StringArg(ctx, 0, "table");
  const Value* opts = TrailingHash(ctx, 1);
  if (ctx.args.size() > 1 && opts == nullptr) throw ShellError("Args should be a Hash");
  ScanSpec spec = ScanFromHash(opts);
  ctx.out.Header("ROW", "COLUMN+CELL");
  long rows = ForEachRow(ctx, table, spec.scan, spec.limit, 100, [&](const t2::TResult& r, long) {
    std::string row = ToStringBinary(r.row);
    for (const auto& cv : r.columnValues) {
      ctx.out.Row(row, "column=" + ColumnText(cv) + ", " + CellText(cv));
    }
  });
  ctx.out.Footer(rows);
}

void Count(CommandContext& ctx) {
  std::string table = StringArg(ctx, 0, "table");
  int64_t interval = 1000;
  int64_t cache = 10;
  if (ctx.args.size() > 1) {
    const Value& p = ctx.args[1];
    if (p.IsInt()) {
      interval = p.integer;  // the old syntax: count 't', 100
    } else if (p.IsHash()) {
      if (const Value* v = p.Find("INTERVAL")) interval = IntOf(*v, "INTERVAL");
      if (const Value* v = p.Find("CACHE")) cache = IntOf(*v, "CACHE");
    }
  }
  t2::TScan scan;
  scan.__set_filterString("FirstKeyOnlyFilter()");  // as HBase's count: one cell per row
  scan.__set_caching(static_cast<int32_t>(cache));
  long rows = ForEachRow(ctx, table, scan, -1, static_cast<int>(std::max<int64_t>(cache, 1)),
                         [&](const t2::TResult& r, long n) {
                           if (interval > 0 && n % interval == 0) {
                             ctx.out.Line("Current count: " + std::to_string(n) +
                                          ", row: " + ToStringBinary(r.row));
                           }
                         });
  ctx.out.Footer(rows);
}

void Delete(CommandContext& ctx) {
  std::string table = StringArg(ctx, 0, "table");
  t2::TDelete del;
  del.row = StringArg(ctx, 1, "row");
  t2::TColumn col = ToTColumn(StringArg(ctx, 2, "column"));
  if (ctx.args.size() > 3 && !ctx.args[3].IsHash()) col.__set_timestamp(IntOf(ctx.args[3], "timestamp"));
  del.__set_columns({col});
  // HBase's delete removes every version at or before the timestamp (Delete.addColumns).
  del.__set_deleteType(t2::TDeleteType::DELETE_COLUMNS);
  auto attrs = Attributes(TrailingHash(ctx, 3));
  if (!attrs.empty()) del.__set_attributes(attrs);
  ctx.connection.Thrift2().deleteSingle(table, del);
}

void DeleteAll(CommandContext& ctx) {
  std::string table = StringArg(ctx, 0, "table");
  std::string row = StringArg(ctx, 1, "row");
  std::string column;
  int64_t ts = kLatestTimestamp;
  size_t i = 2;
  if (ctx.args.size() > i && ctx.args[i].IsString()) column = ctx.args[i++].text;
  if (ctx.args.size() > i && ctx.args[i].IsInt()) ts = ctx.args[i++].integer;
  auto attrs = Attributes(TrailingHash(ctx, 2));
  if (column.empty()) {
    ctx.connection.Thrift1().deleteAllRowTs(table, row, ts, attrs);
  } else {
    ctx.connection.Thrift1().deleteAllTs(table, row, column, ts, attrs);
  }
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
    CommandSpec spec;
    spec.group = "dml";
    spec.subject = Subject::kTable;
    spec.help = help;
    spec.run = std::move(run);
    (*t)[name] = std::move(spec);
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
  add("scan", Scan,
      "Scan a table; pass table name and optionally a dictionary of scanner specifications:\n"
      "TIMERANGE, FILTER, LIMIT, STARTROW, STOPROW, ROWPREFIXFILTER, TIMESTAMP, COLUMNS,\n"
      "VERSIONS, REVERSED, CACHE.\n"
      "  hbase> scan 't1'\n"
      "  hbase> scan 't1', {COLUMNS => ['c1', 'c2'], LIMIT => 10, STARTROW => 'xyz'}\n"
      "  hbase> scan 't1', {REVERSED => true}\n"
      "  hbase> scan 't1', {ROWPREFIXFILTER => 'row2', FILTER => \"\n"
      "    (QualifierFilter (>=, 'binary:xyz')) AND (TimestampsFilter ( 123, 456))\"}");
  add("count", Count,
      "Count the number of rows in a table. Current count is shown every 1000 rows by default.\n"
      "  hbase> count 't1'\n"
      "  hbase> count 't1', INTERVAL => 100000\n"
      "  hbase> count 't1', INTERVAL => 10, CACHE => 1000");
  add("delete", Delete,
      "Put a delete cell value at specified table/row/column and optionally timestamp.\n"
      "  hbase> delete 'ns1:t1', 'r1', 'c1', ts1\n"
      "  hbase> delete 't1', 'r1', 'c1'");
  add("deleteall", DeleteAll,
      "Delete all cells in a given row; pass a table name, row, and optionally a column and\n"
      "timestamp.\n"
      "  hbase> deleteall 'ns1:t1', 'r1'\n"
      "  hbase> deleteall 't1', 'r1', 'c1'\n"
      "  hbase> deleteall 't1', 'r1', 'c1', ts1");
  add("incr", Incr,
      "Increments a cell 'value' at specified table/row/column coordinates.\n"
      "  hbase> incr 'ns1:t1', 'r1', 'c1'\n"
      "  hbase> incr 't1', 'r1', 'c1', 10");
  add("get_counter", GetCounter,
      "Return a counter cell value at specified table/row/column coordinates.\n"
      "  hbase> get_counter 'ns1:t1', 'r1', 'c1'");
}

}  // namespace hbemu::shell
