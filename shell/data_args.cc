// The argument helpers of the row commands (shell/data_args.h).

#include "shell/data_args.h"

#include "shell/interrupt.h"
#include "storage/filter_parser.h"

namespace hbemu::shell {

namespace t2 = hbemu::thrift2;

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
t2::TColumn ToTColumn(const std::string& column, CellPrinter* printer) {
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

long ForEachRow(CommandContext& ctx, const std::string& table, const t2::TScan& scan,
                int64_t limit, int batch,
                const std::function<void(const t2::TResult&, long)>& on_row) {
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

void AddDmlCommand(CommandTable* table, const char* name,
                   std::function<void(CommandContext&)> run, const char* help) {
  CommandSpec spec;
  spec.group = "dml";
  spec.subject = Subject::kTable;
  spec.help = help;
  spec.run = std::move(run);
  (*table)[name] = std::move(spec);
}

}  // namespace hbemu::shell
