#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "THBaseService.h"
#include "server/gateway/batch_errors.h"
#include "server/gateway/scanner_registry.h"
#include "storage/store.h"

namespace hbemu::server {

struct RegionView;

// Implements the Thrift2 `THBaseService` over storage::Store, as HBase 2.6's thrift2 gateway
// does. Like the Thrift1 handler it only translates (thrift2/convert.h) and maps errors
// (thrift2/errors.h); HBase's data rules live in storage/. Its scanners have their own registry
// and id counter, as the two HBase gateways are separate processes.
//
// Thread-safe: called concurrently from the server's threads.
class ThbaseHandler : public thrift2::THBaseServiceIf {
 public:
  struct Options {
    std::string server_name = "localhost";  // reported region server host
    int32_t region_server_port = 16020;     // reported region server port (HBase's default)
    int64_t start_code = 0;                 // reported region server start code
  };

  ThbaseHandler(storage::Store* store, ScannerRegistry* scanners, Options options);

  // ---- reads
  bool exists(const std::string& table, const thrift2::TGet& tget) override;
  void existsAll(std::vector<bool>& _return, const std::string& table,
                 const std::vector<thrift2::TGet>& tgets) override;
  void get(thrift2::TResult& _return, const std::string& table,
           const thrift2::TGet& tget) override;
  void getMultiple(std::vector<thrift2::TResult>& _return, const std::string& table,
                   const std::vector<thrift2::TGet>& tgets) override;

  // ---- writes
  void put(const std::string& table, const thrift2::TPut& tput) override;
  bool checkAndPut(const std::string& table, const std::string& row, const std::string& family,
                   const std::string& qualifier, const std::string& value,
                   const thrift2::TPut& tput) override;
  void putMultiple(const std::string& table, const std::vector<thrift2::TPut>& tputs) override;
  void deleteSingle(const std::string& table, const thrift2::TDelete& tdelete) override;
  void deleteMultiple(std::vector<thrift2::TDelete>& _return, const std::string& table,
                      const std::vector<thrift2::TDelete>& tdeletes) override;
  bool checkAndDelete(const std::string& table, const std::string& row,
                      const std::string& family, const std::string& qualifier,
                      const std::string& value, const thrift2::TDelete& tdelete) override;
  void increment(thrift2::TResult& _return, const std::string& table,
                 const thrift2::TIncrement& tincrement) override;
  void append(thrift2::TResult& _return, const std::string& table,
              const thrift2::TAppend& tappend) override;
  void mutateRow(const std::string& table, const thrift2::TRowMutations& trowMutations) override;
  bool checkAndMutate(const std::string& table, const std::string& row,
                      const std::string& family, const std::string& qualifier,
                      thrift2::TCompareOp::type compareOp, const std::string& value,
                      const thrift2::TRowMutations& rowMutations) override;
  // The check-and-mutate calls with the expected value as sent: nullopt when the client left it
  // unset (HBase: "the column must not exist"), which the generated interface cannot tell from
  // empty bytes. ThbaseProcessor calls these.
  bool CheckAndPut(const std::string& table, const std::string& row, const std::string& family,
                   const std::string& qualifier, const std::optional<std::string>& value,
                   const thrift2::TPut& tput);
  bool CheckAndDelete(const std::string& table, const std::string& row,
                      const std::string& family, const std::string& qualifier,
                      const std::optional<std::string>& value, const thrift2::TDelete& tdelete);
  bool CheckAndMutate(const std::string& table, const std::string& row,
                      const std::string& family, const std::string& qualifier,
                      thrift2::TCompareOp::type compareOp,
                      const std::optional<std::string>& value,
                      const thrift2::TRowMutations& rowMutations);

  // get*ByPattern with the regex as sent: nullopt (unset) lists every table.
  void TableDescriptorsByPattern(std::vector<thrift2::TTableDescriptor>* out,
                                 const std::optional<std::string>& regex, bool includeSysTables);
  void TableNamesByPattern(std::vector<thrift2::TTableName>* out,
                           const std::optional<std::string>& regex, bool includeSysTables);

  // ---- scanners
  int32_t openScanner(const std::string& table, const thrift2::TScan& tscan) override;
  void getScannerRows(std::vector<thrift2::TResult>& _return, int32_t scannerId,
                      int32_t numRows) override;
  // getScannerRows before conversion to Thrift structs, for ThbaseProcessor to write straight
  // to the reply (result_writer.h): appends the next rows of the scanner to *rows. Throws what
  // getScannerRows throws.
  void ScannerNextRows(int32_t scannerId, int32_t numRows, storage::RowBatch* rows);
  void closeScanner(int32_t scannerId) override;
  void getScannerResults(std::vector<thrift2::TResult>& _return, const std::string& table,
                         const thrift2::TScan& tscan, int32_t numRows) override;
  // getScannerResults before conversion, as ScannerNextRows: the first rows of a scan opened
  // and closed within the call.
  void ScanOnce(const std::string& table, const thrift2::TScan& tscan, int32_t numRows,
                storage::RowBatch* rows);

  // ---- regions
  void getRegionLocation(thrift2::THRegionLocation& _return, const std::string& table,
                         const std::string& row, bool reload) override;
  void getAllRegionLocations(std::vector<thrift2::THRegionLocation>& _return,
                             const std::string& table) override;

  // ---- tables (thbase_admin.cc)
  void getTableDescriptor(thrift2::TTableDescriptor& _return,
                          const thrift2::TTableName& table) override;
  void getTableDescriptors(std::vector<thrift2::TTableDescriptor>& _return,
                           const std::vector<thrift2::TTableName>& tables) override;
  bool tableExists(const thrift2::TTableName& tableName) override;
  void getTableDescriptorsByPattern(std::vector<thrift2::TTableDescriptor>& _return,
                                    const std::string& regex, bool includeSysTables) override;
  void getTableDescriptorsByNamespace(std::vector<thrift2::TTableDescriptor>& _return,
                                      const std::string& name) override;
  void getTableNamesByPattern(std::vector<thrift2::TTableName>& _return, const std::string& regex,
                              bool includeSysTables) override;
  void getTableNamesByNamespace(std::vector<thrift2::TTableName>& _return,
                                const std::string& name) override;
  void createTable(const thrift2::TTableDescriptor& desc,
                   const std::vector<std::string>& splitKeys) override;
  void deleteTable(const thrift2::TTableName& tableName) override;
  void truncateTable(const thrift2::TTableName& tableName, bool preserveSplits) override;
  void enableTable(const thrift2::TTableName& tableName) override;
  void disableTable(const thrift2::TTableName& tableName) override;
  bool isTableEnabled(const thrift2::TTableName& tableName) override;
  bool isTableDisabled(const thrift2::TTableName& tableName) override;
  bool isTableAvailable(const thrift2::TTableName& tableName) override;
  bool isTableAvailableWithSplit(const thrift2::TTableName& tableName,
                                 const std::vector<std::string>& splitKeys) override;
  void addColumnFamily(const thrift2::TTableName& tableName,
                       const thrift2::TColumnFamilyDescriptor& column) override;
  void deleteColumnFamily(const thrift2::TTableName& tableName,
                          const std::string& column) override;
  void modifyColumnFamily(const thrift2::TTableName& tableName,
                          const thrift2::TColumnFamilyDescriptor& column) override;
  void modifyTable(const thrift2::TTableDescriptor& desc) override;

  // ---- namespaces (thbase_admin.cc)
  void createNamespace(const thrift2::TNamespaceDescriptor& namespaceDesc) override;
  void modifyNamespace(const thrift2::TNamespaceDescriptor& namespaceDesc) override;
  void deleteNamespace(const std::string& name) override;
  void getNamespaceDescriptor(thrift2::TNamespaceDescriptor& _return,
                              const std::string& name) override;
  void listNamespaceDescriptors(std::vector<thrift2::TNamespaceDescriptor>& _return) override;
  void listNamespaces(std::vector<std::string>& _return) override;

  // ---- server
  thrift2::TThriftServerType::type getThriftServerType() override;
  void getClusterId(std::string& _return) override;
  void getSlowLogResponses(std::vector<thrift2::TOnlineLogRecord>& _return,
                           const std::set<thrift2::TServerName>& serverNames,
                           const thrift2::TLogQueryFilter& logQueryFilter) override;
  void clearSlowLogResponses(std::vector<bool>& _return,
                             const std::set<thrift2::TServerName>& serverNames) override;

 private:
  void ReadOne(const std::string& table, const thrift2::TGet& tget, storage::RowResult* result);
  void Mutate(const std::string& table, const storage::RowMutation& mutation);
  // One client batch of row mutations (Store::MutateRows), failing as HBase's batch does.
  void SendBatch(const std::string& table, const std::vector<storage::RowMutation>& rows);
  // Throws HBase's batch failure when HBase reports `status` that way (gateway/batch_errors.h).
  void ThrowIfBatchFailed(const storage::Status& status, size_t actions) const;
  // Throws `status` as HBase's client reports a failure of calls it sends through its batch
  // machinery (Table.mutateRow, checkAndMutate(RowMutations), get/exists of a list): one
  // RetriesExhaustedWithDetailsException over the failed actions, retryable.
  void ThrowAsFailedActions(const std::vector<storage::Status>& failures, size_t actions) const;
  // putMultiple / deleteMultiple when BatchTableStatus is `table_status` (not OK).
  template <class Item>
  void FailBatchItems(const storage::Status& table_status, const std::vector<Item>& items) const;
  BatchServer BatchServerOf() const;
  // Reads `tgets` as one client batch (two or more gets) or as a plain get (one).
  void ReadMany(const std::string& table, const std::vector<thrift2::TGet>& tgets,
                std::vector<storage::RowResult>* results);
  bool CheckAndMutateImpl(const std::string& table, const std::string& row,
                          const std::string& family, const std::string& qualifier,
                          storage::CompareOp op, const std::optional<std::string>& value,
                          const storage::RowMutation& mutation, bool as_batch);
  std::shared_ptr<const storage::TableDescriptor> Describe(const thrift2::TTableName& name);
  // Tables of all namespaces whose name matches a Java regex (null: all), as HBase's
  // listTableDescriptors(Pattern, includeSysTables).
  std::vector<std::shared_ptr<const storage::TableDescriptor>> TablesMatching(
      const std::optional<std::string>& regex, bool include_sys_tables);
  std::vector<std::shared_ptr<const storage::TableDescriptor>> TablesOfNamespace(
      const std::string& ns);
  thrift2::THRegionLocation Location(const RegionView& region) const;

  storage::Store* const store_;
  ScannerRegistry* const scanners_;
  const Options options_;
};

}  // namespace hbemu::server
