#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Hbase.h"
#include "server/gateway/batch_errors.h"
#include "server/gateway/scanner_registry.h"
#include "server/thrift1/batch_mutations.h"
#include "storage/store.h"

namespace hbemu::server {

struct RegionView;

// Implements the Thrift1 `Hbase` service over storage::Store. It only translates: Thrift
// arguments into storage requests, results back into Thrift structs, and Status into the
// exception HBase's own handler would raise (errors.h). HBase's data rules live in storage/.
//
// Thread-safe: called concurrently from the server's worker threads.
class HbaseHandler : public thrift::HbaseIf {
 public:
  struct Options {
    std::string server_name = "localhost";  // reported as the region server's host name
    int32_t region_server_port = 16020;     // reported region server port (HBase's default)
  };

  HbaseHandler(storage::Store* store, ScannerRegistry* scanners, Options options);

  // ---- tables
  void enableTable(const std::string& tableName) override;
  void disableTable(const std::string& tableName) override;
  bool isTableEnabled(const std::string& tableName) override;
  void compact(const std::string& tableNameOrRegionName) override;
  void majorCompact(const std::string& tableNameOrRegionName) override;
  void getTableNames(std::vector<std::string>& _return) override;
  void getTableNamesWithIsTableEnabled(std::map<std::string, bool>& _return) override;
  void getColumnDescriptors(std::map<std::string, thrift::ColumnDescriptor>& _return,
                            const std::string& tableName) override;
  void getTableRegions(std::vector<thrift::TRegionInfo>& _return,
                       const std::string& tableName) override;
  void createTable(const std::string& tableName,
                   const std::vector<thrift::ColumnDescriptor>& columnFamilies) override;
  void deleteTable(const std::string& tableName) override;
  void getRegionInfo(thrift::TRegionInfo& _return, const std::string& row) override;

  // ---- reads
  void get(std::vector<thrift::TCell>& _return, const std::string& tableName,
           const std::string& row, const std::string& column,
           const std::map<std::string, std::string>& attributes) override;
  void getVer(std::vector<thrift::TCell>& _return, const std::string& tableName,
              const std::string& row, const std::string& column, int32_t numVersions,
              const std::map<std::string, std::string>& attributes) override;
  void getVerTs(std::vector<thrift::TCell>& _return, const std::string& tableName,
                const std::string& row, const std::string& column, int64_t timestamp,
                int32_t numVersions, const std::map<std::string, std::string>& attributes) override;
  void getRow(std::vector<thrift::TRowResult>& _return, const std::string& tableName,
              const std::string& row, const std::map<std::string, std::string>& attributes) override;
  void getRowWithColumns(std::vector<thrift::TRowResult>& _return, const std::string& tableName,
                         const std::string& row, const std::vector<std::string>& columns,
                         const std::map<std::string, std::string>& attributes) override;
  void getRowTs(std::vector<thrift::TRowResult>& _return, const std::string& tableName,
                const std::string& row, int64_t timestamp,
                const std::map<std::string, std::string>& attributes) override;
  void getRowWithColumnsTs(std::vector<thrift::TRowResult>& _return,
                           const std::string& tableName, const std::string& row,
                           const std::vector<std::string>& columns, int64_t timestamp,
                           const std::map<std::string, std::string>& attributes) override;
  void getRows(std::vector<thrift::TRowResult>& _return, const std::string& tableName,
               const std::vector<std::string>& rows,
               const std::map<std::string, std::string>& attributes) override;
  void getRowsWithColumns(std::vector<thrift::TRowResult>& _return, const std::string& tableName,
                          const std::vector<std::string>& rows,
                          const std::vector<std::string>& columns,
                          const std::map<std::string, std::string>& attributes) override;
  void getRowsTs(std::vector<thrift::TRowResult>& _return, const std::string& tableName,
                 const std::vector<std::string>& rows, int64_t timestamp,
                 const std::map<std::string, std::string>& attributes) override;
  void getRowsWithColumnsTs(std::vector<thrift::TRowResult>& _return,
                            const std::string& tableName, const std::vector<std::string>& rows,
                            const std::vector<std::string>& columns, int64_t timestamp,
                            const std::map<std::string, std::string>& attributes) override;

  // ---- writes
  void mutateRow(const std::string& tableName, const std::string& row,
                 const std::vector<thrift::Mutation>& mutations,
                 const std::map<std::string, std::string>& attributes) override;
  void mutateRowTs(const std::string& tableName, const std::string& row,
                   const std::vector<thrift::Mutation>& mutations, int64_t timestamp,
                   const std::map<std::string, std::string>& attributes) override;
  void mutateRows(const std::string& tableName,
                  const std::vector<thrift::BatchMutation>& rowBatches,
                  const std::map<std::string, std::string>& attributes) override;
  void mutateRowsTs(const std::string& tableName,
                    const std::vector<thrift::BatchMutation>& rowBatches, int64_t timestamp,
                    const std::map<std::string, std::string>& attributes) override;
  int64_t atomicIncrement(const std::string& tableName, const std::string& row,
                          const std::string& column, int64_t value) override;
  void deleteAll(const std::string& tableName, const std::string& row, const std::string& column,
                 const std::map<std::string, std::string>& attributes) override;
  void deleteAllTs(const std::string& tableName, const std::string& row,
                   const std::string& column, int64_t timestamp,
                   const std::map<std::string, std::string>& attributes) override;
  void deleteAllRow(const std::string& tableName, const std::string& row,
                    const std::map<std::string, std::string>& attributes) override;
  void deleteAllRowTs(const std::string& tableName, const std::string& row, int64_t timestamp,
                      const std::map<std::string, std::string>& attributes) override;
  void increment(const thrift::TIncrement& increment) override;
  void incrementRows(const std::vector<thrift::TIncrement>& increments) override;
  void append(std::vector<thrift::TCell>& _return, const thrift::TAppend& append) override;
  bool checkAndPut(const std::string& tableName, const std::string& row,
                   const std::string& column, const std::string& value,
                   const thrift::Mutation& mput,
                   const std::map<std::string, std::string>& attributes) override;

  // ---- scanners
  int32_t scannerOpenWithScan(const std::string& tableName, const thrift::TScan& scan,
                              const std::map<std::string, std::string>& attributes) override;
  int32_t scannerOpen(const std::string& tableName, const std::string& startRow,
                      const std::vector<std::string>& columns,
                      const std::map<std::string, std::string>& attributes) override;
  int32_t scannerOpenWithStop(const std::string& tableName, const std::string& startRow,
                              const std::string& stopRow, const std::vector<std::string>& columns,
                              const std::map<std::string, std::string>& attributes) override;
  int32_t scannerOpenWithPrefix(const std::string& tableName, const std::string& startAndPrefix,
                                const std::vector<std::string>& columns,
                                const std::map<std::string, std::string>& attributes) override;
  int32_t scannerOpenTs(const std::string& tableName, const std::string& startRow,
                        const std::vector<std::string>& columns, int64_t timestamp,
                        const std::map<std::string, std::string>& attributes) override;
  int32_t scannerOpenWithStopTs(const std::string& tableName, const std::string& startRow,
                                const std::string& stopRow,
                                const std::vector<std::string>& columns, int64_t timestamp,
                                const std::map<std::string, std::string>& attributes) override;
  void scannerGet(std::vector<thrift::TRowResult>& _return, int32_t id) override;
  void scannerGetList(std::vector<thrift::TRowResult>& _return, int32_t id,
                      int32_t nbRows) override;
  void scannerClose(int32_t id) override;
  // scannerGetList before conversion to Thrift structs, for HbaseProcessor to write straight
  // to the reply (row_writer.h): appends the next rows of scanner `id` to *rows, and says
  // whether they are to be shaped as sortedColumns. Throws what scannerGetList throws.
  void ScannerNextRows(int32_t id, int32_t nbRows, storage::RowBatch* rows,
                       bool* sorted_columns);
  // mutateRows and mutateRowsTs (timestamp kLatest) over rows decoded as views, for
  // HbaseProcessor's mutateRows path (batch_mutations.h). Throws what mutateRows throws.
  void MutateRows(const std::string& table, const BatchMutationsView& rows, int64_t timestamp,
                  const std::map<std::string, std::string>& attributes);

  // The rows of a mutateRows call to a table that cannot take them (BatchTableStatus is not
  // OK), checked and counted as HBase builds them, one at a time: such a call keeps nothing
  // per row, however many rows it has.
  class BatchTally : public BatchRowSink {
   public:
    void Restart() override;
    void AddRow(std::string_view row, const BatchMutationsView::Mutation* begin,
                const BatchMutationsView::Mutation* end) override;

    size_t put_rows = 0;     // rows with a put: the Puts HBase sends first
    size_t delete_rows = 0;  // rows with a delete: the Deletes it sends after them
    std::optional<std::string> error;  // the first bad row or column: fails the call first
  };
  // BatchTableStatus (gateway/batch_errors.h) of this store.
  storage::Status BatchTableStatus(std::string_view table) const;
  // Throws what mutateRows throws for rows counted in `tally` whose table has the (not OK)
  // status `table_status`; returns when HBase would send nothing.
  void FailBatch(const storage::Status& table_status, const BatchTally& tally) const;
  // Throws HBase's conversion error for a mutateRowsTs of `rows` rows at a negative timestamp.
  void CheckBatchTimestamp(size_t rows, int64_t timestamp) const;

  // ---- server
  thrift::TThriftServerType::type getThriftServerType() override;
  void getClusterId(std::string& _return) override;
  bool grant(const thrift::TAccessControlEntity& info) override;
  bool revoke(const thrift::TAccessControlEntity& info) override;

 private:
  void ReadRows(std::vector<thrift::TRowResult>& out, const std::string& table,
                const std::vector<std::string>& rows, const std::vector<std::string>& columns,
                int64_t before_ts);
  void ReadCells(std::vector<thrift::TCell>& out, const std::string& table,
                 const std::string& row, const std::string& column, int32_t versions,
                 int64_t before_ts);
  void MutateRowImpl(const std::string& table, const std::string& row,
                     const std::vector<thrift::Mutation>& mutations, int64_t timestamp,
                     const std::map<std::string, std::string>& attributes);
  // Sends one client batch of row mutations (Store::MutateRows), failing as HBase's batch does.
  void SendBatch(const std::string& table, const storage::MutationBatchView& rows);
  // Throws HBase's batch failure for a batch of `actions` actions that failed as a whole, if
  // HBase reports it that way (gateway/batch_errors.h); otherwise returns.
  void ThrowIfBatchFailed(const storage::Status& status, size_t actions) const;
  BatchServer BatchServerOf() const;
  void DeleteImpl(const std::string& table, const std::string& row, const std::string* column,
                  int64_t timestamp);
  int32_t OpenScanner(const std::string& table, storage::ScanSpec spec,
                      bool sorted_columns);
  thrift::TRegionInfo ToTRegionInfo(const RegionView& region) const;

  storage::Store* const store_;
  ScannerRegistry* const scanners_;
  const Options options_;
};

}  // namespace hbemu::server
