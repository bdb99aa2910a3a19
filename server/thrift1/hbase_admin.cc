#include "server/thrift1/hbase_handler.h"

#include "server/gateway/regions.h"
#include "server/gateway/system_tables.h"
#include "server/thrift1/convert.h"
#include "server/thrift1/errors.h"

// The Hbase service's table, region and server calls (the data calls are in hbase_handler.cc).
namespace hbemu::server {

using storage::Status;

namespace {

constexpr InvalidArgumentAs kIllegalArgument = InvalidArgumentAs::kIllegalArgument;

// A region name or a table name: compaction requests accept either.
std::string TableOfRegionOrTable(const std::string& name) {
  const size_t comma = name.find(',');
  return comma == std::string::npos ? name : name.substr(0, comma);
}

}  // namespace

// ==================================================================== tables

void HbaseHandler::enableTable(const std::string& tableName) {
  ThrowIfError(store_->EnableTable(tableName));
}

void HbaseHandler::disableTable(const std::string& tableName) {
  ThrowIfError(store_->DisableTable(tableName));
}

bool HbaseHandler::isTableEnabled(const std::string& tableName) {
  std::shared_ptr<const storage::TableDescriptor> table;
  ThrowIfError(store_->DescribeTable(tableName, &table));
  return table->enabled;
}

// HBase's Thrift1 compact and majorCompact both only request a compaction
// (docs/thrift-api.md#thrift1-methods).
void HbaseHandler::compact(const std::string& tableNameOrRegionName) {
  ThrowIfError(store_->CompactTable(TableOfRegionOrTable(tableNameOrRegionName)));
}

void HbaseHandler::majorCompact(const std::string& tableNameOrRegionName) {
  ThrowIfError(store_->CompactTable(TableOfRegionOrTable(tableNameOrRegionName)));
}

void HbaseHandler::getTableNames(std::vector<std::string>& _return) {
  for (const auto& table : store_->ListTables()) {
    if (table->name.ns == "hbase") continue;  // system tables are not listed
    _return.push_back(table->name.ToString());
  }
}

void HbaseHandler::getTableNamesWithIsTableEnabled(std::map<std::string, bool>& _return) {
  for (const auto& table : store_->ListTables()) {
    if (table->name.ns == "hbase") continue;
    _return[table->name.ToString()] = table->enabled;
  }
}

void HbaseHandler::getColumnDescriptors(std::map<std::string, thrift::ColumnDescriptor>& _return,
                                        const std::string& tableName) {
  std::shared_ptr<const storage::TableDescriptor> table;
  ThrowIfError(store_->DescribeTable(tableName, &table));
  for (const auto& family : table->families) {
    _return[family.name + ":"] = ToColumnDescriptor(family);
  }
}

thrift::TRegionInfo HbaseHandler::ToTRegionInfo(const RegionView& view) const {
  thrift::TRegionInfo region;
  region.__set_startKey(view.start_key);
  region.__set_endKey(view.end_key);
  region.__set_id(view.region_id);
  region.__set_name(view.name);
  region.__set_version(1);
  region.__set_serverName(options_.server_name);
  region.__set_port(options_.region_server_port);
  return region;
}

void HbaseHandler::getTableRegions(std::vector<thrift::TRegionInfo>& _return,
                                   const std::string& tableName) {
  std::shared_ptr<const storage::TableDescriptor> table;
  const Status s = store_->DescribeTable(tableName, &table);
  if (s.code() == Status::Code::kTableNotFound) return;  // HBase answers [] here, not an error
  ThrowIfError(s);
  for (const RegionView& region : RegionsOf(*table)) _return.push_back(ToTRegionInfo(region));
}

void HbaseHandler::getRegionInfo(thrift::TRegionInfo& _return, const std::string& row) {
  // `row` is a meta key, "<table>,<row>,<id>"; HBase answers the region of the last meta row
  // at or before it, whichever table that is.
  const std::optional<RegionView> region = RegionAtOrBeforeMetaKey(store_->ListTables(), row);
  if (!region) {
    ThrowIOError("java.io.IOException", "Cannot find row in hbase:meta, row=" + row, true);
  }
  _return = ToTRegionInfo(*region);
}

void HbaseHandler::createTable(const std::string& tableName,
                               const std::vector<thrift::ColumnDescriptor>& columnFamilies) {
  // HBase parses the name before its try block, so a bad name is an application error; the
  // existence check comes before any family is looked at.
  storage::TableName parsed;
  ThrowIfError(storage::ParseTableName(tableName, &parsed));
  std::shared_ptr<const storage::TableDescriptor> existing;
  // hbase:meta and hbase:namespace exist in HBase, though not in the store; other tables may
  // be created in the hbase namespace, as HBase 2.6 allows (they count as system tables).
  if (store_->DescribeTable(tableName, &existing).ok() || FindSystemTable(tableName) != nullptr) {
    ThrowIfError(Status::TableExists(tableName));
  }
  std::vector<storage::FamilyDescriptor> families;
  for (const auto& cd : columnFamilies) {
    storage::FamilyDescriptor family;
    ThrowIfError(ToFamilyDescriptor(cd, &family), kIllegalArgument);
    families.push_back(std::move(family));
  }
  ThrowIfError(store_->CreateTable(tableName, std::move(families)), kIllegalArgument);
}

void HbaseHandler::deleteTable(const std::string& tableName) {
  std::shared_ptr<const storage::TableDescriptor> table;
  const Status s = store_->DescribeTable(tableName, &table);
  if (s.code() == Status::Code::kTableNotFound) {
    ThrowIOError("java.io.IOException", "table does not exist", true);
  }
  ThrowIfError(s);
  ThrowIfError(store_->DeleteTable(tableName));
}

// ==================================================================== server

thrift::TThriftServerType::type HbaseHandler::getThriftServerType() {
  return thrift::TThriftServerType::ONE;
}

void HbaseHandler::getClusterId(std::string& _return) { _return = store_->cluster_id(); }

bool HbaseHandler::grant(const thrift::TAccessControlEntity&) {
  ThrowIOError("java.io.IOException",
               "grant: access control is not enabled on hbase-emulator (no authentication)", false);
}

bool HbaseHandler::revoke(const thrift::TAccessControlEntity&) {
  ThrowIOError("java.io.IOException",
               "revoke: access control is not enabled on hbase-emulator (no authentication)", false);
}

}  // namespace hbemu::server
