#include "server/thrift2/thbase_handler.h"

#include <utility>

#include "server/admin/console.h"
#include "server/admin/metrics.h"
#include "server/gateway/application_error.h"
#include "server/gateway/regions.h"
#include "server/gateway/scanner_fetch.h"
#include "server/limits.h"
#include "server/thrift2/convert.h"
#include "server/thrift2/errors.h"
#include "storage/request_checks.h"
#include "storage/result_budget.h"

namespace hbemu::server {

using storage::Status;
using thrift2_errors::ThrowIfError;
using thrift2_errors::ThrowTIOError;
using thrift2_errors::ThrowTIllegalArgument;
namespace convert = thrift2_convert;

ThbaseHandler::ThbaseHandler(storage::Store* store, ScannerRegistry* scanners, Options options)
    : store_(store), scanners_(scanners), options_(std::move(options)) {}

// ==================================================================== reads

void ThbaseHandler::ReadOne(const std::string& table, const thrift2::TGet& tget,
                            storage::RowResult* result) {
  storage::ReadSpec spec;
  ThrowIfError(convert::ToReadSpec(tget, &spec));
  ThrowIfError(store_->Get(table, tget.row, spec, result));
  admin::NoteRead(table, tget.row);
}

bool ThbaseHandler::exists(const std::string& table, const thrift2::TGet& tget) {
  storage::RowResult result;
  ReadOne(table, tget, &result);
  return !result.cells.empty();
}

void ThbaseHandler::existsAll(std::vector<bool>& _return, const std::string& table,
                              const std::vector<thrift2::TGet>& tgets) {
  std::vector<storage::RowResult> results;
  ReadMany(table, tgets, &results);
  for (const storage::RowResult& result : results) _return.push_back(!result.cells.empty());
}

void ThbaseHandler::ReadMany(const std::string& table, const std::vector<thrift2::TGet>& tgets,
                             std::vector<storage::RowResult>* results) {
  // Every Get is built before anything is sent: a bad one fails the call as it is converted.
  std::vector<storage::ReadSpec> specs(tgets.size());
  for (size_t i = 0; i < tgets.size(); ++i) ThrowIfError(convert::ToReadSpec(tgets[i], &specs[i]));
  results->resize(tgets.size());
  storage::ResultBudget budget(static_cast<uint64_t>(CurrentLimits().result_bytes));
  if (tgets.size() < 2) {
    // Table.get(List) of one is a plain get, failing with its own exception.
    for (size_t i = 0; i < tgets.size(); ++i) {
      ThrowIfError(store_->Get(table, tgets[i].row, specs[i], &(*results)[i]));
      ThrowIfError(budget.Charge((*results)[i]));
      admin::NoteRead(table, tgets[i].row);
    }
    return;
  }
  // Two or more gets are one client batch: a missing or disabled table fails every action
  // before any row is read; otherwise each failed read is one failed action.
  ThrowIfBatchFailed(BatchTableStatus(*store_, table), tgets.size());
  std::vector<Status> failures;
  for (size_t i = 0; i < tgets.size(); ++i) {
    Status read = store_->Get(table, tgets[i].row, specs[i], &(*results)[i]);
    if (!read.ok()) failures.push_back(std::move(read));
    ThrowIfError(budget.Charge((*results)[i]));  // the whole call, not one action
    admin::NoteRead(table, tgets[i].row);
  }
  ThrowAsFailedActions(failures, tgets.size());
}

void ThbaseHandler::ThrowAsFailedActions(const std::vector<Status>& failures,
                                         size_t actions) const {
  std::vector<storage::Store::RowFailure> rows;
  for (size_t i = 0; i < failures.size(); ++i) {
    if (!failures[i].ok()) rows.push_back({i, failures[i]});
  }
  if (rows.empty()) return;
  ThrowIfBatchFailed(rows.front().status, actions);
  ThrowTIOError(RowFailures(rows, BatchServerOf()), true);
}

namespace {

// HBase 2.6 runs an existence_only Get, then fails to convert the cell-less answer it gets
// back (ThriftUtilities.resultFromHBase reads its null cell array): a runtime exception after
// the reads, so read errors come first. exists() is the call that answers this question.
void RejectExistenceOnly(const thrift2::TGet& tget) {
  if (tget.__isset.existence_only && tget.existence_only) {
    throw ApplicationError("existence_only: HBase's Thrift2 gateway cannot return the answer");
  }
}

}  // namespace

void ThbaseHandler::get(thrift2::TResult& _return, const std::string& table,
                        const thrift2::TGet& tget) {
  storage::RowResult result;
  ReadOne(table, tget, &result);
  RejectExistenceOnly(tget);
  convert::ToTResult(std::move(result), &_return);
}

void ThbaseHandler::getMultiple(std::vector<thrift2::TResult>& _return, const std::string& table,
                                const std::vector<thrift2::TGet>& tgets) {
  // One batch of reads first, then the conversion, as HBase's Table.get(List) does.
  std::vector<storage::RowResult> results;
  ReadMany(table, tgets, &results);
  for (const thrift2::TGet& tget : tgets) RejectExistenceOnly(tget);
  // Sized once: growing a vector of generated structs copies them.
  _return.resize(tgets.size());
  for (size_t i = 0; i < tgets.size(); ++i) convert::ToTResult(std::move(results[i]), &_return[i]);
}

void ThbaseHandler::ThrowIfBatchFailed(const storage::Status& status, size_t actions) const {
  if (status.ok()) return;
  const std::string message = WholeBatchFailure(status, actions, BatchServerOf());
  if (!message.empty()) ThrowTIOError(message, true);
}

BatchServer ThbaseHandler::BatchServerOf() const {
  return BatchServer{options_.server_name, options_.region_server_port};
}

// Table.put(List) / delete(List): a client batch that applies every good row and reports the
// rejected ones afterwards.
void ThbaseHandler::SendBatch(const std::string& table,
                              const std::vector<storage::RowMutation>& rows) {
  std::vector<storage::Store::RowFailure> failures;
  const storage::Status s = store_->MutateRows(table, rows, &failures);
  if (!failures.empty()) ThrowTIOError(RowFailures(failures, BatchServerOf()), true);
  ThrowIfBatchFailed(s, rows.size());
  ThrowIfError(s);
  admin::NoteWrites(table, rows.size(),
                    [&rows](size_t i) { return std::string_view(rows[i].row); });
}

// ==================================================================== writes

void ThbaseHandler::Mutate(const std::string& table, const storage::RowMutation& mutation) {
  ThrowIfError(store_->Mutate(table, mutation));
  admin::NoteWrite(table, mutation.row);
}

void ThbaseHandler::put(const std::string& table, const thrift2::TPut& tput) {
  storage::RowMutation mutation;
  ThrowIfError(convert::ToRowMutation(tput, &mutation));
  Mutate(table, mutation);
}

// A batch to a table that cannot take it: HBase converts the whole list first, so a bad item's
// error comes before the table's; here each item is converted and dropped at once, keeping
// nothing per row, and then the batch fails as a whole.
template <class Item>
void ThbaseHandler::FailBatchItems(const Status& table_status,
                                   const std::vector<Item>& items) const {
  for (const Item& item : items) {
    storage::RowMutation mutation;
    ThrowIfError(convert::ToRowMutation(item, &mutation));
  }
  if (items.empty()) return;  // nothing is sent
  ThrowIfBatchFailed(table_status, items.size());
  ThrowIfError(table_status);
}

void ThbaseHandler::putMultiple(const std::string& table, const std::vector<thrift2::TPut>& tputs) {
  const Status table_status = BatchTableStatus(*store_, table);
  if (!table_status.ok()) return FailBatchItems(table_status, tputs);
  std::vector<storage::RowMutation> mutations(tputs.size());
  for (size_t i = 0; i < tputs.size(); ++i) {
    ThrowIfError(convert::ToRowMutation(tputs[i], &mutations[i]));
  }
  SendBatch(table, mutations);
}

void ThbaseHandler::deleteSingle(const std::string& table, const thrift2::TDelete& tdelete) {
  storage::RowMutation mutation;
  ThrowIfError(convert::ToRowMutation(tdelete, &mutation));
  Mutate(table, mutation);
}

void ThbaseHandler::deleteMultiple(std::vector<thrift2::TDelete>& _return,
                                   const std::string& table,
                                   const std::vector<thrift2::TDelete>& tdeletes) {
  const Status table_status = BatchTableStatus(*store_, table);
  if (!table_status.ok()) return FailBatchItems(table_status, tdeletes);
  std::vector<storage::RowMutation> mutations(tdeletes.size());
  for (size_t i = 0; i < tdeletes.size(); ++i) {
    ThrowIfError(convert::ToRowMutation(tdeletes[i], &mutations[i]));
  }
  SendBatch(table, mutations);
  _return.clear();  // HBase 2.x always answers an empty list
}

bool ThbaseHandler::CheckAndMutateImpl(const std::string& table, const std::string& row,
                                       const std::string& family, const std::string& qualifier,
                                       storage::CompareOp op,
                                       const std::optional<std::string>& value,
                                       const storage::RowMutation& mutation, bool as_batch) {
  if (mutation.row != row) {
    // The region server refuses a mutation for another row (ProtobufUtil.toCheckAndMutate).
    const Status other_row = Status::DoNotRetry(
        "The row of the action <" + admin::ToStringBinary(mutation.row) +
        "> doesn't match the original one <" + admin::ToStringBinary(row) + ">");
    if (as_batch) ThrowAsFailedActions({other_row}, 1);
    ThrowIfError(other_row);
  }
  bool applied = false;
  const Status s =
      store_->CheckAndMutate(table, row, family, qualifier, op, value, mutation, &applied);
  if (as_batch) ThrowAsFailedActions({s}, 1);
  ThrowIfError(s);
  admin::NoteWrite(table, row);
  return applied;
}

bool ThbaseHandler::CheckAndPut(const std::string& table, const std::string& row,
                                const std::string& family, const std::string& qualifier,
                                const std::optional<std::string>& value,
                                const thrift2::TPut& tput) {
  storage::RowMutation mutation;
  ThrowIfError(convert::ToRowMutation(tput, &mutation));
  return CheckAndMutateImpl(table, row, family, qualifier, storage::CompareOp::kEqual, value,
                            mutation, /*as_batch=*/false);
}

bool ThbaseHandler::checkAndPut(const std::string& table, const std::string& row,
                                const std::string& family, const std::string& qualifier,
                                const std::string& value, const thrift2::TPut& tput) {
  return CheckAndPut(table, row, family, qualifier, value, tput);
}

bool ThbaseHandler::CheckAndDelete(const std::string& table, const std::string& row,
                                   const std::string& family, const std::string& qualifier,
                                   const std::optional<std::string>& value,
                                   const thrift2::TDelete& tdelete) {
  storage::RowMutation mutation;
  ThrowIfError(convert::ToRowMutation(tdelete, &mutation));
  return CheckAndMutateImpl(table, row, family, qualifier, storage::CompareOp::kEqual, value,
                            mutation, /*as_batch=*/false);
}

bool ThbaseHandler::checkAndDelete(const std::string& table, const std::string& row,
                                   const std::string& family, const std::string& qualifier,
                                   const std::string& value, const thrift2::TDelete& tdelete) {
  return CheckAndDelete(table, row, family, qualifier, value, tdelete);
}

bool ThbaseHandler::CheckAndMutate(const std::string& table, const std::string& row,
                                   const std::string& family, const std::string& qualifier,
                                   thrift2::TCompareOp::type compareOp,
                                   const std::optional<std::string>& value,
                                   const thrift2::TRowMutations& rowMutations) {
  // HBase unwraps the value unchecked: a missing one is a NullPointerException.
  if (!value.has_value()) throw ApplicationError("checkAndMutate needs a value");
  storage::RowMutation mutation;
  ThrowIfError(convert::ToRowMutation(rowMutations, &mutation));
  storage::CompareOp op = storage::CompareOp::kEqual;
  ThrowIfError(convert::ToCompareOp(compareOp, &op));
  // Table.checkAndMutate(RowMutations) goes through HBase's batch machinery.
  return CheckAndMutateImpl(table, row, family, qualifier, op, value, mutation,
                            /*as_batch=*/true);
}

bool ThbaseHandler::checkAndMutate(const std::string& table, const std::string& row,
                                   const std::string& family, const std::string& qualifier,
                                   thrift2::TCompareOp::type compareOp, const std::string& value,
                                   const thrift2::TRowMutations& rowMutations) {
  return CheckAndMutate(table, row, family, qualifier, compareOp, value, rowMutations);
}

void ThbaseHandler::increment(thrift2::TResult& _return, const std::string& table,
                              const thrift2::TIncrement& tincrement) {
  // new Increment(row) checks the row, and one with nothing to add is refused, as HBase
  // converts it.
  if (const Status s = storage::CheckRow(tincrement.row); !s.ok()) {
    throw ApplicationError(s.message());
  }
  if (tincrement.columns.empty()) throw ApplicationError("Increment has no columns");
  std::vector<storage::ColumnIncrement> increments;
  increments.reserve(tincrement.columns.size());
  for (const thrift2::TColumnIncrement& c : tincrement.columns) {
    increments.push_back({c.family, c.qualifier, c.amount});
  }
  std::vector<storage::Cell> cells;
  ThrowIfError(store_->Increment(table, tincrement.row, increments, &cells));
  admin::NoteWrite(table, tincrement.row);
  if (tincrement.__isset.returnResults && !tincrement.returnResults) cells.clear();
  convert::ToTResult(tincrement.row, std::move(cells), &_return);
}

void ThbaseHandler::append(thrift2::TResult& _return, const std::string& table,
                           const thrift2::TAppend& tappend) {
  if (const Status s = storage::CheckRow(tappend.row); !s.ok()) {  // new Append(row)
    throw ApplicationError(s.message());
  }
  if (tappend.columns.empty()) throw ApplicationError("Append has no columns");
  std::vector<storage::ColumnAppend> appends;
  appends.reserve(tappend.columns.size());
  for (const thrift2::TColumnValue& c : tappend.columns) {
    appends.push_back({c.family, c.qualifier, c.value});
  }
  std::vector<storage::Cell> cells;
  ThrowIfError(store_->Append(table, tappend.row, appends, &cells));
  admin::NoteWrite(table, tappend.row);
  if (tappend.__isset.returnResults && !tappend.returnResults) cells.clear();
  convert::ToTResult(tappend.row, std::move(cells), &_return);
}

void ThbaseHandler::mutateRow(const std::string& table,
                              const thrift2::TRowMutations& trowMutations) {
  // Before the batch machinery, whose failures are failed actions: application_error.h.
  ThrowIfIllegalTableName(table);
  storage::RowMutation mutation;
  ThrowIfError(convert::ToRowMutation(trowMutations, &mutation));
  // Table.mutateRow goes through HBase's batch machinery: every failure is one failed action.
  ThrowAsFailedActions({store_->Mutate(table, mutation)}, 1);
  admin::NoteWrite(table, mutation.row);
}

// ==================================================================== scanners

int32_t ThbaseHandler::openScanner(const std::string& table, const thrift2::TScan& tscan) {
  ThrowIfIllegalTableName(table);  // the scanner opens lazily, the name is checked now
  storage::ScanSpec spec;
  ThrowIfError(convert::ToScanSpec(tscan, &spec));
  // Opened lazily, at the first fetch that asks for rows, as HBase's client does: a missing
  // table or family fails there (scanner_fetch.h).
  int32_t id = 0;
  ThrowIfError(scanners_->AddUnopened(table, std::move(spec), /*sorted_columns=*/false, &id));
  return id;
}

void ThbaseHandler::getScannerRows(std::vector<thrift2::TResult>& _return, int32_t scannerId,
                                   int32_t numRows) {
  storage::RowBatch rows;
  ScannerNextRows(scannerId, numRows, &rows);
  _return.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) convert::ToTResult(rows.ToRowResult(i), &_return[i]);
}

void ThbaseHandler::ScannerNextRows(int32_t scannerId, int32_t numRows, storage::RowBatch* rows) {
  // HBase looks the scanner up before it reads any rows.
  std::shared_ptr<ScannerRegistry::Entry> entry = scanners_->Find(scannerId);
  if (entry == nullptr) {
    ThrowTIllegalArgument("Invalid scanner Id");
  }
  if (numRows < 0) throw ApplicationError("numRows must not be negative");
  const size_t first = rows->size();
  {
    std::lock_guard<std::mutex> lock(entry->mu);
    ThrowIfError(FetchScannerRows(*store_, entry.get(), numRows, rows));
  }
  admin::NoteReads(entry->table, *rows, first);
}

void ThbaseHandler::closeScanner(int32_t scannerId) {
  scanners_->Remove(scannerId);  // an unknown id is not an error in HBase 2.4+
}

void ThbaseHandler::getScannerResults(std::vector<thrift2::TResult>& _return,
                                      const std::string& table, const thrift2::TScan& tscan,
                                      int32_t numRows) {
  storage::RowBatch rows;
  ScanOnce(table, tscan, numRows, &rows);
  _return.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) convert::ToTResult(rows.ToRowResult(i), &_return[i]);
}

void ThbaseHandler::ScanOnce(const std::string& table, const thrift2::TScan& tscan,
                             int32_t numRows, storage::RowBatch* rows) {
  if (numRows < 0) throw ApplicationError("numRows must not be negative");
  storage::ScanSpec spec;
  ThrowIfError(convert::ToScanSpec(tscan, &spec));
  // HBase's client sends no scan RPC for 0 rows: nothing past the request's conversion fails.
  if (numRows == 0) return;
  std::unique_ptr<storage::Scanner> scanner;
  ThrowIfError(store_->OpenScanner(table, spec, &scanner));
  const size_t first = rows->size();
  ThrowIfError(FetchScannerRows(scanner.get(), numRows, rows));
  admin::NoteReads(table, *rows, first);
}

// ==================================================================== regions

thrift2::THRegionLocation ThbaseHandler::Location(const RegionView& region) const {
  thrift2::THRegionLocation location;
  location.serverName.hostName = options_.server_name;
  location.serverName.__set_port(options_.region_server_port);
  location.serverName.__set_startCode(options_.start_code);
  thrift2::THRegionInfo& info = location.regionInfo;
  info.regionId = 0;  // HBase's ThriftUtilities never fills it in
  info.tableName = region.table;
  info.__set_startKey(region.start_key);
  info.__set_endKey(region.end_key);
  info.__set_offline(false);
  info.__set_split(false);
  info.__set_replicaId(0);
  return location;
}

void ThbaseHandler::getRegionLocation(thrift2::THRegionLocation& _return,
                                      const std::string& table, const std::string& row, bool) {
  std::shared_ptr<const storage::TableDescriptor> descriptor;
  ThrowIfError(store_->DescribeTable(table, &descriptor));
  _return = Location(RegionHolding(*descriptor, row));
}

void ThbaseHandler::getAllRegionLocations(std::vector<thrift2::THRegionLocation>& _return,
                                          const std::string& table) {
  std::shared_ptr<const storage::TableDescriptor> descriptor;
  const Status s = store_->DescribeTable(table, &descriptor);
  if (s.code() == Status::Code::kTableNotFound) return;  // HBase answers [] here
  ThrowIfError(s);
  for (const RegionView& region : RegionsOf(*descriptor)) _return.push_back(Location(region));
}

// ==================================================================== server

thrift2::TThriftServerType::type ThbaseHandler::getThriftServerType() {
  return thrift2::TThriftServerType::TWO;
}

void ThbaseHandler::getClusterId(std::string& _return) { _return = store_->cluster_id(); }

// No call here is ever slow enough to log: the slow log stays empty, as on an idle HBase.
void ThbaseHandler::getSlowLogResponses(std::vector<thrift2::TOnlineLogRecord>& _return,
                                        const std::set<thrift2::TServerName>&,
                                        const thrift2::TLogQueryFilter&) {
  _return.clear();
}

void ThbaseHandler::clearSlowLogResponses(std::vector<bool>& _return,
                                          const std::set<thrift2::TServerName>& serverNames) {
  // One answer per region server asked, or for the one server when none is named.
  _return.assign(serverNames.empty() ? 1 : serverNames.size(), true);
}

}  // namespace hbemu::server
