// Arguments the row commands share (put, get, scan, count, delete ...): attribute hashes,
// column specs, time ranges, filters, and how a returned cell prints.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "shell/cell_format.h"
#include "shell/shell.h"

namespace hbemu::shell {

// ATTRIBUTES => {...} of a trailing hash (nullptr: none).
std::map<std::string, std::string> Attributes(const Value* hash);
// A FILTER value, checked by the filter parser before it is sent.
std::string CheckedFilter(const Value& v);
// The trailing {...} argument at index >= from, if any.
const Value* TrailingHash(const CommandContext& ctx, size_t from);
// A column argument, remembering its converter ("f:q:toLong") in `printer`.
hbemu::thrift2::TColumn ToTColumn(const std::string& column, CellPrinter* printer = nullptr);
// FORMATTER and MAXLENGTH of a get or scan.
void PrinterOptions(const Value& opts, CellPrinter* printer);
// COLUMN(S) => 'f:q' or ['f:q', ...].
std::vector<std::string> ColumnList(const Value& v);
// TIMERANGE => [min, max].
hbemu::thrift2::TTimeRange TimeRange(const Value& v);
std::string CellText(const CellPrinter& p, const hbemu::thrift2::TColumnValue& cv);
std::string ColumnText(const CellPrinter& p, const hbemu::thrift2::TColumnValue& cv);

// The stop row of a prefix scan: the prefix with its last byte below 0xFF incremented.
std::string PrefixStop(std::string prefix);
// Opens a Thrift2 scanner on `scan`, fetches `batch` results at a time and calls `on_row` with
// each result and its 1-based number, until the scan ends or `limit` distinct rows (> 0) were
// seen; Ctrl-C stops it between results. The scanner is closed on every way out. Returns the
// number of results handed over (with BATCH, parts of one row each count).
long ForEachRow(CommandContext& ctx, const std::string& table, const hbemu::thrift2::TScan& scan,
                int64_t limit, int batch,
                const std::function<void(const hbemu::thrift2::TResult&, long)>& on_row);

// Registers a row command (help group "dml", a table as its subject).
void AddDmlCommand(CommandTable* table, const char* name,
                   std::function<void(CommandContext&)> run, const char* help);

}  // namespace hbemu::shell
