// Row commands: put, get, scan, delete, deleteall, incr, append, get_counter, count.
// Thrift1 carries what it expresses exactly (deleteall, incr, get_counter); put, get, scan,
// delete, append and count need Thrift2: the empty qualifier ("f" is "f:"), cell TTLs as HBase's
// 8-byte attribute, time ranges, versions, filters and delete types.

#include <chrono>
#include <limits>
#include <map>

#include "shell/bytes_text.h"
#include "shell/cell_format.h"
#include "shell/interrupt.h"
#include "shell/shell.h"
#include "storage/filter_parser.h"

namespace hbemu::shell {
// A FILTER string, parsed here first as HBase's shell does (ParseFilter runs in the client),
// so a mistake reads as the parser's reason rather than as the gateway's internal error.
// The parser is the server's own (storage/filter_parser): one reading of the language.
std::string CheckFilterString(const std::string& text) {
  std::shared_ptr<const storage::Filter> parsed;
  storage::Status s = storage::ParseFilterString(text, &parsed);
  if (!s.ok()) {
    std::string message = s.message();
    // ParseFilter says "Incorrect filter string <expr>"; the emulator's parser adds the
    // argument's reason in parentheses, which HBase's shell does not print.
    const std::string kIncorrect = "Incorrect filter string ";
    if (message.rfind(kIncorrect, 0) == 0 && message.back() == ')') {
      size_t open = message.rfind(" (");
      if (open != std::string::npos) message.resize(open);
    }
    throw ShellError(message);
  }
  return text;
}

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

std::string CheckedFilter(const Value& v) {
  if (!v.IsString()) throw ShellError("FILTER must be a filter string");
  return CheckFilterString(v.text);
}

// The trailing {…} argument at index >= from, if any.
const Value* TrailingHash(const CommandContext& ctx, size_t from) {
  if (ctx.args.size() > from && ctx.args.back().IsHash()) return &ctx.args.back();
  return nullptr;
}

// A column argument, remembering its converter ("f:q:toLong") in `printer`.
t2::TColumn ToTColumn(const std::string& column, CellPrinter* printer = nullptr) {
  ColumnSpec c = ParseColumnSpec(column);
  t2::TColumn col;
  col.family = c.family;
  if (c.has_qualifier) col.__set_qualifier(c.qualifier);
  if (printer && !c.converter.empty()) printer->converters[c.family + ":" + c.qualifier] = c.converter;
  return col;
}

// FORMATTER and MAXLENGTH of a get or scan.
void PrinterOptions(const Value& opts, CellPrinter* printer) {
  if (const Value* v = opts.Find("FORMATTER")) printer->formatter = v->ToS();
  if (const Value* v = opts.Find("FORMATTER_CLASS")) {
    if (v->ToS() != "org.apache.hadoop.hbase.util.Bytes") {
      printer->formatter = "c(" + v->ToS() + ")." + (printer->formatter.empty() ? "toStringBinary" : printer->formatter);
    }
  }
  if (const Value* v = opts.Find("MAXLENGTH")) printer->maxlength = IntOf(*v, "MAXLENGTH");
}

std::string EncodeLong(int64_t v) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
  return out;
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

std::string CellText(const CellPrinter& p, const t2::TColumnValue& cv) {
  return p.Cell(cv.family, cv.qualifier, cv.timestamp, cv.value);
}

std::string ColumnText(const CellPrinter& p, const t2::TColumnValue& cv) {
  return p.Column(cv.family, cv.qualifier);
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
  CellPrinter printer;
  bool raw = false;  // RAW => true, which Thrift cannot ask for (RawScanNote)
};

// HBase's Thrift API has no raw scan (TScan has no such field), so a RAW scan over it returns
// what a normal scan does. Said in one line rather than hidden; against hbase-emulator, whose
// console browses the cells it stores (versions past VERSIONS and expired cells included until
// it drops them), the line says where.
std::string RawScanNote(CommandContext& ctx, const std::string& table) {
  std::string note =
      "Note: RAW => true is not available over HBase's Thrift API: delete markers, the cells they "
      "hide, versions beyond the family's VERSIONS and TTL-expired cells are not shown.";
  try {
    if (ctx.connection.IsEmulator()) {
      const ConnectionOptions& o = ctx.connection.options();
      note += " hbase-emulator's console shows the cells it stores: http://" + o.host +
              ":" + std::to_string(o.admin_port) + "/browse/" + table;
    }
  } catch (const std::exception&) {
    // which server it is does not matter enough to fail the scan that just succeeded
  }
  return note;
}

ScanSpec ScanFromHash(const Value* opts) {
  ScanSpec spec;
  if (opts == nullptr) return spec;
  t2::TScan& scan = spec.scan;
  for (const auto& [k, v] : opts->pairs) {
    std::string key = k.ToS();
    if (key == "STARTROW" || key == "STOPROW" || key == "ROWPREFIXFILTER" || key == "LIMIT" ||
        key == "COLUMNS" || key == "COLUMN" || key == "VERSIONS" || key == "REVERSED" ||
        key == "TIMERANGE" || key == "TIMESTAMP" || key == "FILTER" || key == "CACHE" ||
        key == "CACHE_BLOCKS" || key == "ATTRIBUTES" || key == "MAXLENGTH" ||
        key == "FORMATTER" || key == "FORMATTER_CLASS" || key == "INTERVAL" || key == "RAW" ||
        key == "BATCH" || key == "READ_TYPE" || key == "CONSISTENCY" ||
        key == "REGION_REPLICA_ID" || key == "AUTHORIZATIONS" ||
        // Sizes of the client's RPCs and its isolation: no effect on what a scan returns here.
        key == "MAX_RESULT_SIZE" || key == "ALLOW_PARTIAL_RESULTS" || key == "ISOLATION_LEVEL") {
      continue;
    }
    throw ShellError("Unsupported scan option " + key);
  }
  if (const Value* v = opts->Find("RAW")) spec.raw = v->kind == Value::Kind::kBool ? v->boolean : true;
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
    for (const auto& c : ColumnList(*cols)) list.push_back(ToTColumn(c, &spec.printer));
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
  if (const Value* v = opts->Find("FILTER")) scan.__set_filterString(CheckedFilter(*v));
  if (const Value* v = opts->Find("CACHE")) scan.__set_caching(IntOf(*v, "CACHE"));
  if (const Value* v = opts->Find("BATCH")) scan.__set_batchSize(IntOf(*v, "BATCH"));
  if (const Value* v = opts->Find("READ_TYPE")) {
    std::string t = v->ToS();
    if (t == "STREAM") scan.__set_readType(t2::TReadType::STREAM);
    else if (t == "PREAD") scan.__set_readType(t2::TReadType::PREAD);
    else scan.__set_readType(t2::TReadType::DEFAULT);
  }
  if (const Value* v = opts->Find("CONSISTENCY")) {
    scan.__set_consistency(v->ToS() == "TIMELINE" ? t2::TConsistency::TIMELINE
                                                   : t2::TConsistency::STRONG);
  }
  if (const Value* v = opts->Find("REGION_REPLICA_ID")) {
    scan.__set_targetReplicaId(static_cast<int32_t>(IntOf(*v, "REGION_REPLICA_ID")));
  }
  if (const Value* v = opts->Find("AUTHORIZATIONS")) {
    t2::TAuthorization auth;
    std::vector<std::string> labels;
    if (v->IsArray()) {
      for (const auto& l : v->items) labels.push_back(l.ToS());
    } else {
      labels.push_back(v->ToS());
    }
    auth.__set_labels(labels);
    scan.__set_authorizations(auth);
  }
  if (const Value* v = opts->Find("CACHE_BLOCKS")) scan.__set_cacheBlocks(v->boolean);
  if (const Value* v = opts->Find("LIMIT")) {
    spec.limit = IntOf(*v, "LIMIT");
    if (spec.limit > 0) scan.__set_limit(static_cast<int32_t>(spec.limit));
  }
  auto attrs = Attributes(opts);
  if (!attrs.empty()) scan.__set_attributes(attrs);
  PrinterOptions(*opts, &spec.printer);
  return spec;
}

// Runs `scan` and calls `on_row` for each row until it returns false or `limit` rows were seen.
template <typename OnRow>
long ForEachRow(CommandContext& ctx, const std::string& table, const t2::TScan& scan,
                int64_t limit, int batch, OnRow on_row) {
  auto& client = ctx.connection.Thrift2();
  int32_t id = client.openScanner(table, scan);
  long rows = 0;      // results handed to on_row (with BATCH, parts of a row each count)
  int64_t distinct = 0;  // rows, which LIMIT counts as Scan.setLimit does
  std::string last_row;
  try {
    bool more = true;
    while (more) {
      ThrowIfInterrupted(rows);  // Ctrl-C: stop between two fetches (the scanner is closed)
      std::vector<t2::TResult> results;
      client.getScannerRows(results, id, batch);
      if (results.empty()) break;
      for (const auto& r : results) {
        ThrowIfInterrupted(rows);
        if (rows == 0 || r.row != last_row) {
          if (limit > 0 && distinct >= limit) {
            more = false;
            break;
          }
          ++distinct;
          last_row = r.row;
        }
        on_row(r, rows + 1);
        ++rows;
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
  ctx.out.Header("ROW", "COLUMN+CELL");
  if (ctx.args.size() > 1 && opts == nullptr) {
    // What HBase's scan says of a non-Hash argument (it calls `any?` on it).
    throw ShellError("undefined method `any?' for " + ctx.args[1].Inspect() + ":" +
                     (ctx.args[1].IsInt() ? "Integer" : "String"));
  }
  ScanSpec spec = ScanFromHash(opts);
  const CellPrinter& p = spec.printer;
  long rows = ForEachRow(ctx, table, spec.scan, spec.limit, 100, [&](const t2::TResult& r, long) {
    std::string row = p.Name(r.row);
    for (const auto& cv : r.columnValues) {
      ctx.out.Row(row, "column=" + ColumnText(p, cv) + ", " + CellText(p, cv));
    }
  });
  ctx.out.Footer(rows);
  if (spec.raw) ctx.out.Line(RawScanNote(ctx, table));
}

void Count(CommandContext& ctx) {
  std::string table = StringArg(ctx, 0, "table");
  int64_t interval = 1000;
  int64_t cache = 10;
  ScanSpec spec;
  if (ctx.args.size() > 1) {
    const Value& p = ctx.args[1];
    if (p.IsInt()) {
      interval = p.integer;  // the old syntax: count 't', 100
    } else if (p.IsHash()) {
      if (const Value* v = p.Find("INTERVAL")) interval = IntOf(*v, "INTERVAL");
      if (const Value* v = p.Find("CACHE")) cache = IntOf(*v, "CACHE");
      // Every scan option applies too (count.rb hands the hash to _hash_to_scan).
      spec = ScanFromHash(&p);
    }
  }
  t2::TScan& scan = spec.scan;
  // As HBase's count: one cell per row, kept with the user's filter in a FilterList (AND).
  scan.__set_filterString(scan.__isset.filterString
                              ? "(" + scan.filterString + ") AND FirstKeyOnlyFilter()"
                              : std::string("FirstKeyOnlyFilter()"));
  scan.__set_caching(static_cast<int32_t>(cache));
  long rows = ForEachRow(ctx, table, scan, spec.limit, static_cast<int>(std::max<int64_t>(cache, 1)),
                         [&](const t2::TResult& r, long n) {
                           if (interval > 0 && n % interval == 0) {
                             ctx.out.Line("Current count: " + std::to_string(n) +
                                          ", row: " + ToStringBinary(r.row));
                           }
                         });
  ctx.out.Footer(rows);
  if (spec.raw) ctx.out.Line(RawScanNote(ctx, table));
  ctx.out.Return(std::to_string(rows));
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
