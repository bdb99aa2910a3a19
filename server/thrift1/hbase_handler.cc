#include "server/thrift1/hbase_handler.h"

#include <glog/logging.h>

#include "server/admin/metrics.h"

#include "server/gateway/application_error.h"
#include "server/gateway/attributes.h"
#include "server/gateway/batch_errors.h"
#include "server/gateway/regions.h"
#include "server/gateway/scanner_fetch.h"
#include "server/limits.h"
#include "server/thrift1/convert.h"
#include "server/thrift1/errors.h"
#include "storage/filter_parser.h"
#include "storage/request_checks.h"
#include "storage/result_budget.h"

namespace hbemu::server {

using storage::ColumnMutation;
using storage::MutationType;
using storage::RowMutation;
using storage::Status;

namespace {

constexpr int64_t kLatest = storage::kLatestTimestamp;
constexpr InvalidArgumentAs kIllegalArgument = InvalidArgumentAs::kIllegalArgument;

// Thrift1 reads that take a timestamp see only cells strictly older than it: HBase's handler uses
// the time range [0, ts), whatever the IDL comments say (docs/thrift-api.md#thrift1-timestamps). A
// negative ts fails HBase's TimeRange(0, ts) while the request is built (INTERNAL_ERROR), before
// the table is looked up.
storage::TimeRange Before(int64_t ts) {
  if (ts < 0) throw ApplicationError("maxStamp is smaller than minStamp");
  storage::TimeRange range;
  if (ts != kLatest) range.max = ts;
  return range;
}

// HBase's Put and Delete constructors check the row (Mutation.checkRow) before anything is
// sent, so these errors come first, before the table is even looked up.
using storage::CheckRow;

// A negative timestamp given to HBase's Put or Delete constructor: an exception outside the
// handler's IOException handling, so INTERNAL_ERROR with the constructor's text.
void ThrowIfNegativeTimestamp(int64_t timestamp) {
  const Status s = storage::CheckTimestamp(timestamp);
  if (!s.ok()) throw ApplicationError(s.message());
}

}  // namespace

HbaseHandler::HbaseHandler(storage::Store* store, ScannerRegistry* scanners, Options options)
    : store_(store), scanners_(scanners), options_(std::move(options)) {}

// ==================================================================== reads

void HbaseHandler::ReadCells(std::vector<thrift::TCell>& out, const std::string& table,
                             const std::string& row, const std::string& column, int32_t versions,
                             int64_t before_ts) {
  ThrowIfError(CheckRow(row));  // new Get(row), before anything else
  storage::ReadSpec spec;
  AddColumns({column}, &spec.columns);
  spec.time_range = Before(before_ts);
  // Get.readVersions refuses it (after setTimeRange) before the table is looked up.
  if (!row.empty() && versions <= 0) {
    ThrowIfError(storage::Status::IOError("versions must be positive"));
  }
  spec.max_versions = versions;
  storage::RowResult result;
  ThrowIfError(store_->Get(table, row, spec, &result));
  admin::NoteRead(table, row);
  out = ToTCells(result.cells);
}

void HbaseHandler::get(std::vector<thrift::TCell>& _return, const std::string& tableName,
                       const std::string& row, const std::string& column,
                       const std::map<std::string, std::string>&) {
  ReadCells(_return, tableName, row, column, 1, kLatest);
}

void HbaseHandler::getVer(std::vector<thrift::TCell>& _return, const std::string& tableName,
                          const std::string& row, const std::string& column, int32_t numVersions,
                          const std::map<std::string, std::string>&) {
  ReadCells(_return, tableName, row, column, numVersions, kLatest);
}

void HbaseHandler::getVerTs(std::vector<thrift::TCell>& _return, const std::string& tableName,
                            const std::string& row, const std::string& column, int64_t timestamp,
                            int32_t numVersions, const std::map<std::string, std::string>&) {
  ReadCells(_return, tableName, row, column, numVersions, timestamp);
}

void HbaseHandler::ReadRows(std::vector<thrift::TRowResult>& out, const std::string& table,
                            const std::vector<std::string>& rows,
                            const std::vector<std::string>& columns, int64_t before_ts) {
  storage::ReadSpec spec;
  AddColumns(columns, &spec.columns);
  // HBase sets the time range on each row's Get: with no rows nothing is checked.
  if (!rows.empty()) spec.time_range = Before(before_ts);
  out.reserve(rows.size());  // growing would copy: generated Thrift structs cannot move
  storage::ResultBudget budget(static_cast<uint64_t>(CurrentLimits().result_bytes));
  for (const std::string& row : rows) {
    storage::RowResult result;
    const Status s = store_->Get(table, row, spec, &result);
    // HBase reads two or more rows as one client batch (Table.get(List)).
    if (rows.size() >= 2) ThrowIfBatchFailed(s, rows.size());
    ThrowIfError(s);
    ThrowIfError(budget.Charge(result));
    admin::NoteRead(table, row);
    if (result.cells.empty()) continue;  // HBase drops empty results: a missing row is absent
    out.emplace_back();
    ToTRowResult(std::move(result), /*sorted_columns=*/false, &out.back());
  }
}

void HbaseHandler::getRow(std::vector<thrift::TRowResult>& _return, const std::string& tableName,
                          const std::string& row, const std::map<std::string, std::string>&) {
  ReadRows(_return, tableName, {row}, {}, kLatest);
}

void HbaseHandler::getRowWithColumns(std::vector<thrift::TRowResult>& _return,
                                     const std::string& tableName, const std::string& row,
                                     const std::vector<std::string>& columns,
                                     const std::map<std::string, std::string>&) {
  ReadRows(_return, tableName, {row}, columns, kLatest);
}

void HbaseHandler::getRowTs(std::vector<thrift::TRowResult>& _return,
                            const std::string& tableName, const std::string& row,
                            int64_t timestamp, const std::map<std::string, std::string>&) {
  ReadRows(_return, tableName, {row}, {}, timestamp);
}

void HbaseHandler::getRowWithColumnsTs(std::vector<thrift::TRowResult>& _return,
                                       const std::string& tableName, const std::string& row,
                                       const std::vector<std::string>& columns, int64_t timestamp,
                                       const std::map<std::string, std::string>&) {
  ReadRows(_return, tableName, {row}, columns, timestamp);
}

void HbaseHandler::getRows(std::vector<thrift::TRowResult>& _return, const std::string& tableName,
                           const std::vector<std::string>& rows,
                           const std::map<std::string, std::string>&) {
  ReadRows(_return, tableName, rows, {}, kLatest);
}

void HbaseHandler::getRowsWithColumns(std::vector<thrift::TRowResult>& _return,
                                      const std::string& tableName,
                                      const std::vector<std::string>& rows,
                                      const std::vector<std::string>& columns,
                                      const std::map<std::string, std::string>&) {
  ReadRows(_return, tableName, rows, columns, kLatest);
}

void HbaseHandler::getRowsTs(std::vector<thrift::TRowResult>& _return,
                             const std::string& tableName, const std::vector<std::string>& rows,
                             int64_t timestamp, const std::map<std::string, std::string>&) {
  ReadRows(_return, tableName, rows, {}, timestamp);
}

void HbaseHandler::getRowsWithColumnsTs(std::vector<thrift::TRowResult>& _return,
                                        const std::string& tableName,
                                        const std::vector<std::string>& rows,
                                        const std::vector<std::string>& columns,
                                        int64_t timestamp,
                                        const std::map<std::string, std::string>&) {
  ReadRows(_return, tableName, rows, columns, timestamp);
}

// ==================================================================== writes

// HBase builds one Delete and one Put (checking the row first) and sends the Delete first, as
// two separate operations: a delete and a put of the same column at an explicit timestamp leave
// it invisible. A family-only put is skipped with a warning.
void HbaseHandler::MutateRowImpl(const std::string& table, const std::string& row,
                                 const std::vector<thrift::Mutation>& mutations, int64_t timestamp,
                                 const std::map<std::string, std::string>& attributes) {
  ThrowIfError(CheckRow(row), kIllegalArgument);
  // HBase builds `new Put(row, timestamp)` whatever the mutations, which checks the timestamp.
  if (const Status ts = storage::CheckTimestamp(timestamp); !ts.ok()) {
    ThrowIllegalArgument("java.lang.IllegalArgumentException: " + ts.message());
  }
  RowMutation deletes{row, {}, 0};
  RowMutation puts{row, {}, CellTtlFromAttributes(attributes)};
  for (const thrift::Mutation& m : mutations) {
    ColumnSpec column = ParseColumn(m.column);
    if (m.isDelete) {
      ColumnMutation d;
      d.type = column.qualifier ? MutationType::kDeleteColumn : MutationType::kDeleteFamily;
      d.family = std::move(column.family);
      d.qualifier = column.qualifier.value_or("");
      d.timestamp = timestamp;
      deletes.mutations.push_back(std::move(d));
    } else if (!column.qualifier) {
      LOG(WARNING) << "[hbase] mutateRow: skipping put without a qualifier: " << m.column;
    } else {
      ColumnMutation p;
      p.family = std::move(column.family);
      p.qualifier = std::move(*column.qualifier);
      p.timestamp = timestamp;
      p.value = m.value;
      puts.mutations.push_back(std::move(p));
    }
  }
  if (!deletes.mutations.empty()) ThrowIfError(store_->Mutate(table, deletes), kIllegalArgument);
  if (!puts.mutations.empty()) ThrowIfError(store_->Mutate(table, puts), kIllegalArgument);
  admin::NoteWrite(table, row);
}

void HbaseHandler::mutateRow(const std::string& tableName, const std::string& row,
                             const std::vector<thrift::Mutation>& mutations,
                             const std::map<std::string, std::string>& attributes) {
  MutateRowImpl(tableName, row, mutations, kLatest, attributes);
}

void HbaseHandler::mutateRowTs(const std::string& tableName, const std::string& row,
                               const std::vector<thrift::Mutation>& mutations, int64_t timestamp,
                               const std::map<std::string, std::string>& attributes) {
  MutateRowImpl(tableName, row, mutations, timestamp, attributes);
}

namespace {

// HBase's rules for one row of mutateRows as it builds the row's Delete (made for every row,
// which checks the row) and Put: calls on_put(column, m) or on_delete(column, m) for each
// mutation and returns nullopt, or returns the error that fails the whole call (a bad row, a
// put without a qualifier).
template <class OnPut, class OnDelete>
std::optional<std::string> VisitBatchRow(std::string_view row,
                                         const BatchMutationsView::Mutation* begin,
                                         const BatchMutationsView::Mutation* end, OnPut&& on_put,
                                         OnDelete&& on_delete) {
  const Status row_status = CheckRow(row);
  if (!row_status.ok()) return row_status.message();
  for (const BatchMutationsView::Mutation* m = begin; m != end; ++m) {
    const ColumnSpecView column = ParseColumnView(m->column);
    if (m->is_delete) {
      on_delete(column, *m);
    } else if (!column.qualifier) {
      return std::string("Invalid famAndQf provided.");
    } else {
      on_put(column, *m);
    }
  }
  return std::nullopt;
}

}  // namespace

// HBase builds every Put and Delete first (a bad row or a family-only put fails the call with
// nothing written), then sends all the Puts as one client batch and, only if every Put
// succeeded, all the Deletes as another: a put and a delete of the same column in one call leave
// it deleted. A batch applies its good rows and reports the rejected ones afterwards.
void HbaseHandler::MutateRows(const std::string& table, const BatchMutationsView& rows,
                              int64_t timestamp,
                              const std::map<std::string, std::string>& attributes) {
  CheckBatchTimestamp(rows.size(), timestamp);
  const Status table_status = BatchTableStatus(table);
  if (!table_status.ok()) {
    BatchTally tally;
    for (size_t i = 0; i < rows.size(); ++i) tally.AddRow(rows.row(i), rows.begin(i), rows.end(i));
    FailBatch(table_status, tally);
    return;
  }
  const int64_t cell_ttl = CellTtlFromAttributes(attributes);
  storage::MutationBatchView puts, deletes;
  puts.Reserve(rows.size(), rows.size());  // rows are mostly one or a few puts
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string_view row = rows.row(i);
    bool has_put = false, has_delete = false;
    const std::optional<std::string> error = VisitBatchRow(
        row, rows.begin(i), rows.end(i),
        [&](const ColumnSpecView& column, const BatchMutationsView::Mutation& m) {
          if (!has_put) puts.AddRow(row, cell_ttl);
          has_put = true;
          storage::ColumnMutationView c;
          c.timestamp = timestamp;
          c.family = column.family;
          c.qualifier = *column.qualifier;
          c.value = m.value;
          puts.AddColumn(c);
        },
        [&](const ColumnSpecView& column, const BatchMutationsView::Mutation&) {
          if (!has_delete) deletes.AddRow(row);
          has_delete = true;
          storage::ColumnMutationView c;
          c.timestamp = timestamp;
          c.family = column.family;
          c.type = column.qualifier ? MutationType::kDeleteColumn : MutationType::kDeleteFamily;
          c.qualifier = column.qualifier.value_or(std::string_view());
          deletes.AddColumn(c);
        });
    if (error) throw ApplicationError(*error);
  }
  SendBatch(table, puts);
  SendBatch(table, deletes);
  admin::NoteWrites(table, rows.size(), [&rows](size_t i) { return rows.row(i); });
}

void HbaseHandler::BatchTally::Restart() { *this = BatchTally(); }

void HbaseHandler::BatchTally::AddRow(std::string_view row,
                                      const BatchMutationsView::Mutation* begin,
                                      const BatchMutationsView::Mutation* end) {
  if (error) return;  // HBase stops building at the first error
  bool has_put = false, has_delete = false;
  error = VisitBatchRow(
      row, begin, end, [&](const ColumnSpecView&, const auto&) { has_put = true; },
      [&](const ColumnSpecView&, const auto&) { has_delete = true; });
  put_rows += has_put ? 1 : 0;
  delete_rows += has_delete ? 1 : 0;
}

Status HbaseHandler::BatchTableStatus(std::string_view table) const {
  return server::BatchTableStatus(*store_, table);
}

void HbaseHandler::FailBatch(const Status& table_status, const BatchTally& tally) const {
  if (tally.error) throw ApplicationError(*tally.error);
  // The Puts go first; the Deletes would only be sent if they had all succeeded.
  const size_t actions = tally.put_rows > 0 ? tally.put_rows : tally.delete_rows;
  if (actions == 0) return;  // nothing to send: HBase never looks the table up
  ThrowIfBatchFailed(table_status, actions);
  ThrowIfError(table_status, kIllegalArgument);
}

void HbaseHandler::SendBatch(const std::string& table, const storage::MutationBatchView& rows) {
  std::vector<storage::Store::RowFailure> failures;
  const Status s = store_->MutateRows(table, rows, &failures);
  if (!failures.empty()) {
    ThrowIOError(kRetriesExhaustedWithDetails, RowFailures(failures, BatchServerOf()), true);
  }
  ThrowIfBatchFailed(s, rows.size());
  ThrowIfError(s, kIllegalArgument);
}

BatchServer HbaseHandler::BatchServerOf() const {
  return BatchServer{options_.server_name, options_.region_server_port};
}

void HbaseHandler::ThrowIfBatchFailed(const Status& status, size_t actions) const {
  if (status.ok()) return;
  const std::string message = WholeBatchFailure(status, actions, BatchServerOf());
  if (!message.empty()) ThrowIOError(kRetriesExhaustedWithDetails, message, true);
}

// HBase builds `new Put(row, timestamp)` for every row before the batch is sent: a negative
// timestamp fails the call (INTERNAL_ERROR) before the table is looked up, unless there are
// no rows.
void HbaseHandler::CheckBatchTimestamp(size_t rows, int64_t timestamp) const {
  if (rows > 0) ThrowIfNegativeTimestamp(timestamp);
}

void HbaseHandler::mutateRows(const std::string& tableName,
                              const std::vector<thrift::BatchMutation>& rowBatches,
                              const std::map<std::string, std::string>& attributes) {
  BatchMutationsView rows;
  rows.Assign(rowBatches);
  MutateRows(tableName, rows, kLatest, attributes);
}

void HbaseHandler::mutateRowsTs(const std::string& tableName,
                                const std::vector<thrift::BatchMutation>& rowBatches,
                                int64_t timestamp,
                                const std::map<std::string, std::string>& attributes) {
  BatchMutationsView rows;
  rows.Assign(rowBatches);
  MutateRows(tableName, rows, timestamp, attributes);
}

int64_t HbaseHandler::atomicIncrement(const std::string& tableName, const std::string& row,
                                      const std::string& column, int64_t value) {
  ColumnSpec c = ParseColumn(column);  // a bare family means the empty qualifier here
  if (row.empty()) {
    // HBase's region server rejects the row with a plain (retryable) IOException, so the
    // client gives up only after its retries; we answer at once with the same text.
    ThrowIOError("org.apache.hadoop.hbase.client.RetriesExhaustedException",
                 "Failed after attempts=16, exceptions: java.io.IOException: "
                 "java.io.IOException: " + CheckRow(row).message(),
                 true);
  }
  std::vector<storage::Cell> result;
  ThrowIfError(store_->Increment(tableName, row, {{c.family, c.qualifier.value_or(""), value}},
                                 &result));
  admin::NoteWrite(tableName, row);
  uint64_t v = 0;
  for (unsigned char b : result.front().value) v = (v << 8) | b;
  return static_cast<int64_t>(v);
}

void HbaseHandler::DeleteImpl(const std::string& table, const std::string& row,
                              const std::string* column, int64_t timestamp) {
  // HBase's handler builds the Delete (row and timestamp checked) outside its IOException
  // handling: a bad one is INTERNAL_ERROR, before the table is looked up.
  ThrowIfError(CheckRow(row));
  ThrowIfNegativeTimestamp(timestamp);
  ColumnMutation d;
  d.timestamp = timestamp;
  if (column == nullptr) {
    d.type = MutationType::kDeleteRow;
  } else {
    ColumnSpec c = ParseColumn(*column);
    d.type = c.qualifier ? MutationType::kDeleteColumn : MutationType::kDeleteFamily;
    d.family = std::move(c.family);
    d.qualifier = c.qualifier.value_or("");
  }
  ThrowIfError(store_->Mutate(table, RowMutation{row, {std::move(d)}, 0}));
  admin::NoteWrite(table, row);
}

void HbaseHandler::deleteAll(const std::string& tableName, const std::string& row,
                             const std::string& column, const std::map<std::string, std::string>&) {
  DeleteImpl(tableName, row, &column, kLatest);
}

void HbaseHandler::deleteAllTs(const std::string& tableName, const std::string& row,
                               const std::string& column, int64_t timestamp,
                               const std::map<std::string, std::string>&) {
  DeleteImpl(tableName, row, &column, timestamp);
}

void HbaseHandler::deleteAllRow(const std::string& tableName, const std::string& row,
                                const std::map<std::string, std::string>&) {
  DeleteImpl(tableName, row, nullptr, kLatest);
}

void HbaseHandler::deleteAllRowTs(const std::string& tableName, const std::string& row,
                                  int64_t timestamp, const std::map<std::string, std::string>&) {
  DeleteImpl(tableName, row, nullptr, timestamp);
}

void HbaseHandler::increment(const thrift::TIncrement& inc) {
  if (inc.table.empty() || inc.row.empty()) {
    throw ApplicationError("Must supply a table and a row key; can't increment");
  }
  ColumnSpec c = ParseColumn(inc.column);
  if (!c.qualifier) throw ApplicationError("increment needs family:qualifier, got " + inc.column);
  std::vector<storage::Cell> result;
  ThrowIfError(store_->Increment(inc.table, inc.row, {{c.family, *c.qualifier, inc.ammount}},
                                 &result));
  admin::NoteWrite(inc.table, inc.row);
}

void HbaseHandler::incrementRows(const std::vector<thrift::TIncrement>& increments) {
  for (const auto& inc : increments) increment(inc);
}

void HbaseHandler::append(std::vector<thrift::TCell>& _return, const thrift::TAppend& app) {
  if (app.table.empty() || app.row.empty()) {
    throw ApplicationError("Must supply a table and a row key; can't append");
  }
  if (app.columns.size() != app.values.size()) {
    throw ApplicationError("Sizes of columns and values in tappend object are not matching");
  }
  // HBase's client refuses an Append without columns before it looks for the table.
  if (app.columns.empty()) throw ApplicationError("No columns to append");
  std::vector<storage::ColumnAppend> appends;
  for (size_t i = 0; i < app.columns.size(); ++i) {
    ColumnSpec c = ParseColumn(app.columns[i]);
    if (!c.qualifier) throw ApplicationError("append needs family:qualifier");
    appends.push_back({c.family, *c.qualifier, app.values[i]});
  }
  std::vector<storage::Cell> result;
  ThrowIfError(store_->Append(app.table, app.row, appends, &result));
  admin::NoteWrite(app.table, app.row);
  _return = ToTCells(result);
}

bool HbaseHandler::checkAndPut(const std::string& tableName, const std::string& row,
                               const std::string& column, const std::string& value,
                               const thrift::Mutation& mput,
                               const std::map<std::string, std::string>& attributes) {
  // The Put is built (and its row checked) first; then HBase indexes both columns' qualifier
  // part unchecked, so a bare family fails the call.
  ThrowIfError(CheckRow(row), kIllegalArgument);
  ColumnSpec check = ParseColumn(column);
  ColumnSpec target = ParseColumn(mput.column);
  if (!check.qualifier || !target.qualifier) {
    throw ApplicationError("checkAndPut needs family:qualifier columns");
  }
  // mput.isDelete is ignored: HBase always builds a Put here.
  ColumnMutation put;
  put.family = std::move(target.family);
  put.qualifier = std::move(*target.qualifier);
  put.value = mput.value;
  RowMutation mutation{row, {std::move(put)}, CellTtlFromAttributes(attributes)};
  // An unset expected value reaches us as empty bytes; HBase treats unset and empty alike.
  bool applied = false;
  ThrowIfError(store_->CheckAndMutate(tableName, row, check.family, *check.qualifier,
                                      storage::CompareOp::kEqual, value, mutation, &applied),
               kIllegalArgument);
  admin::NoteWrite(tableName, row);
  return applied;
}

// ==================================================================== scanners

// Opened lazily, at the first fetch that asks for rows, as HBase's client does: a missing table
// or family fails there (scanner_fetch.h).
int32_t HbaseHandler::OpenScanner(const std::string& table, storage::ScanSpec spec,
                                  bool sorted_columns) {
  ThrowIfIllegalTableName(table);  // HBase's getTable(name), before the scan is built
  int32_t id = 0;
  ThrowIfError(scanners_->AddUnopened(table, std::move(spec), sorted_columns, &id));
  return id;
}

int32_t HbaseHandler::scannerOpenWithScan(const std::string& tableName, const thrift::TScan& scan,
                                          const std::map<std::string, std::string>&) {
  storage::ScanSpec spec;
  if (scan.__isset.filterString) {
    // Even an empty string is parsed (and fails), as HBase does; a parse error is an
    // IllegalArgumentException there, so the client sees TApplicationException.
    ThrowIfError(storage::ParseFilterString(scan.filterString, FilterLimitsOf(CurrentLimits()),
                                              &spec.read.filter));
  }
  if (scan.__isset.startRow) spec.start_row = scan.startRow;
  if (scan.__isset.stopRow) spec.stop_row = scan.stopRow;
  if (scan.__isset.timestamp) spec.read.time_range = Before(scan.timestamp);
  if (scan.__isset.columns) AddColumns(scan.columns, &spec.read.columns);
  if (scan.__isset.batchSize && scan.batchSize > 0) spec.batch = scan.batchSize;
  if (scan.__isset.reversed) spec.reversed = scan.reversed;
  // caching and cacheBlocks only tune RPCs and the block cache in HBase: nothing to do here.
  return OpenScanner(tableName, std::move(spec), scan.__isset.sortColumns && scan.sortColumns);
}

int32_t HbaseHandler::scannerOpen(const std::string& tableName, const std::string& startRow,
                                  const std::vector<std::string>& columns,
                                  const std::map<std::string, std::string>&) {
  storage::ScanSpec spec;
  spec.start_row = startRow;
  AddColumns(columns, &spec.read.columns);
  return OpenScanner(tableName, std::move(spec), false);
}

int32_t HbaseHandler::scannerOpenWithStop(const std::string& tableName,
                                          const std::string& startRow, const std::string& stopRow,
                                          const std::vector<std::string>& columns,
                                          const std::map<std::string, std::string>&) {
  storage::ScanSpec spec;
  spec.start_row = startRow;
  spec.stop_row = stopRow;
  AddColumns(columns, &spec.read.columns);
  return OpenScanner(tableName, std::move(spec), false);
}

// HBase starts at the prefix with WhileMatch(PrefixFilter(prefix)): the scan ends at the first
// row without the prefix, which for a forward scan is exactly the prefix's key range.
int32_t HbaseHandler::scannerOpenWithPrefix(const std::string& tableName,
                                            const std::string& startAndPrefix,
                                            const std::vector<std::string>& columns,
                                            const std::map<std::string, std::string>&) {
  storage::ScanSpec spec;
  spec.start_row = startAndPrefix;
  spec.row_prefix = startAndPrefix;
  AddColumns(columns, &spec.read.columns);
  return OpenScanner(tableName, std::move(spec), false);
}

int32_t HbaseHandler::scannerOpenTs(const std::string& tableName, const std::string& startRow,
                                    const std::vector<std::string>& columns, int64_t timestamp,
                                    const std::map<std::string, std::string>&) {
  storage::ScanSpec spec;
  spec.start_row = startRow;
  spec.read.time_range = Before(timestamp);
  AddColumns(columns, &spec.read.columns);
  return OpenScanner(tableName, std::move(spec), false);
}

int32_t HbaseHandler::scannerOpenWithStopTs(const std::string& tableName,
                                            const std::string& startRow,
                                            const std::string& stopRow,
                                            const std::vector<std::string>& columns,
                                            int64_t timestamp,
                                            const std::map<std::string, std::string>&) {
  storage::ScanSpec spec;
  spec.start_row = startRow;
  spec.stop_row = stopRow;
  spec.read.time_range = Before(timestamp);
  AddColumns(columns, &spec.read.columns);
  return OpenScanner(tableName, std::move(spec), false);
}

void HbaseHandler::scannerGet(std::vector<thrift::TRowResult>& _return, int32_t id) {
  scannerGetList(_return, id, 1);
}

void HbaseHandler::scannerGetList(std::vector<thrift::TRowResult>& _return, int32_t id,
                                  int32_t nbRows) {
  storage::RowBatch rows;
  bool sorted_columns = false;
  ScannerNextRows(id, nbRows, &rows, &sorted_columns);
  // Sized once: growing a vector of generated Thrift structs copies them (no move constructors).
  _return.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    ToTRowResult(rows.ToRowResult(i), sorted_columns, &_return[i]);
  }
}

void HbaseHandler::ScannerNextRows(int32_t id, int32_t nbRows, storage::RowBatch* rows,
                                   bool* sorted_columns) {
  // HBase looks the scanner up before it reads any rows.
  std::shared_ptr<ScannerRegistry::Entry> entry = scanners_->Find(id);
  if (entry == nullptr) {
    ThrowIllegalArgument("scanner ID is invalid");
  }
  if (nbRows < 0) throw ApplicationError("nbRows must not be negative");
  std::lock_guard<std::mutex> lock(entry->mu);
  const size_t first = rows->size();
  ThrowIfError(FetchScannerRows(*store_, entry.get(), nbRows, rows));
  admin::NoteReads(entry->table, *rows, first);
  *sorted_columns = entry->sorted_columns;
}

void HbaseHandler::scannerClose(int32_t id) {
  if (!scanners_->Remove(id)) {
    ThrowIllegalArgument("scanner ID is invalid");
  }
}

}  // namespace hbemu::server
