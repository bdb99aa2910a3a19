// THBaseService's table and namespace administration (HBase's Admin calls).
#include <utility>

#include "server/thrift2/convert.h"
#include "server/thrift2/errors.h"
#include "server/thrift2/table_pattern.h"
#include "server/thrift2/thbase_handler.h"

namespace hbemu::server {

using storage::Status;
using thrift2_errors::ThrowIfError;
namespace convert = thrift2_convert;

namespace {

bool IsSystemTable(const storage::TableDescriptor& table) { return table.name.ns == "hbase"; }

}  // namespace

std::shared_ptr<const storage::TableDescriptor> ThbaseHandler::Describe(
    const thrift2::TTableName& name) {
  std::shared_ptr<const storage::TableDescriptor> table;
  ThrowIfError(store_->DescribeTable(convert::FullTableName(name), &table));
  return table;
}

std::vector<std::shared_ptr<const storage::TableDescriptor>> ThbaseHandler::TablesMatching(
    const std::optional<std::string>& regex, bool include_sys_tables) {
  std::unique_ptr<TablePattern> pattern;
  if (regex.has_value()) ThrowIfError(TablePattern::Compile(*regex, &pattern));
  std::vector<std::shared_ptr<const storage::TableDescriptor>> out;
  for (auto& table : store_->ListTables()) {
    if (!include_sys_tables && IsSystemTable(*table)) continue;
    if (pattern && !pattern->Matches(table->name.ns, table->name.qualifier)) continue;
    out.push_back(std::move(table));
  }
  return out;
}

std::vector<std::shared_ptr<const storage::TableDescriptor>> ThbaseHandler::TablesOfNamespace(
    const std::string& ns) {
  bool known = false;
  for (const std::string& name : store_->ListNamespaces()) known = known || name == ns;
  if (!known) ThrowIfError(Status::NamespaceNotFound(ns));
  std::vector<std::shared_ptr<const storage::TableDescriptor>> out;
  for (auto& table : store_->ListTables()) {
    if (table->name.ns == ns) out.push_back(std::move(table));
  }
  return out;
}

// ==================================================================== tables

void ThbaseHandler::getTableDescriptor(thrift2::TTableDescriptor& _return,
                                       const thrift2::TTableName& table) {
  _return = convert::ToTTableDescriptor(*Describe(table));
}

void ThbaseHandler::getTableDescriptors(std::vector<thrift2::TTableDescriptor>& _return,
                                        const std::vector<thrift2::TTableName>& tables) {
  for (const thrift2::TTableName& name : tables) {
    std::shared_ptr<const storage::TableDescriptor> table;
    // Unknown names are skipped, as HBase's listTableDescriptors(List) does.
    if (!store_->DescribeTable(convert::FullTableName(name), &table).ok()) continue;
    _return.push_back(convert::ToTTableDescriptor(*table));
  }
}

bool ThbaseHandler::tableExists(const thrift2::TTableName& tableName) {
  std::shared_ptr<const storage::TableDescriptor> table;
  return store_->DescribeTable(convert::FullTableName(tableName), &table).ok();
}

void ThbaseHandler::TableDescriptorsByPattern(std::vector<thrift2::TTableDescriptor>* out,
                                              const std::optional<std::string>& regex,
                                              bool includeSysTables) {
  for (const auto& table : TablesMatching(regex, includeSysTables)) {
    out->push_back(convert::ToTTableDescriptor(*table));
  }
}

void ThbaseHandler::getTableDescriptorsByPattern(std::vector<thrift2::TTableDescriptor>& _return,
                                                 const std::string& regex,
                                                 bool includeSysTables) {
  TableDescriptorsByPattern(&_return, regex, includeSysTables);
}

void ThbaseHandler::getTableDescriptorsByNamespace(
    std::vector<thrift2::TTableDescriptor>& _return, const std::string& name) {
  for (const auto& table : TablesOfNamespace(name)) {
    _return.push_back(convert::ToTTableDescriptor(*table));
  }
}

void ThbaseHandler::TableNamesByPattern(std::vector<thrift2::TTableName>* out,
                                        const std::optional<std::string>& regex,
                                        bool includeSysTables) {
  for (const auto& table : TablesMatching(regex, includeSysTables)) {
    out->push_back(convert::ToTTableName(table->name));
  }
}

void ThbaseHandler::getTableNamesByPattern(std::vector<thrift2::TTableName>& _return,
                                           const std::string& regex, bool includeSysTables) {
  TableNamesByPattern(&_return, regex, includeSysTables);
}

void ThbaseHandler::getTableNamesByNamespace(std::vector<thrift2::TTableName>& _return,
                                             const std::string& name) {
  for (const auto& table : TablesOfNamespace(name)) {
    _return.push_back(convert::ToTTableName(table->name));
  }
}

void ThbaseHandler::createTable(const thrift2::TTableDescriptor& desc,
                                const std::vector<std::string>& splitKeys) {
  std::vector<storage::FamilyDescriptor> families(desc.columns.size());
  for (size_t i = 0; i < desc.columns.size(); ++i) {
    ThrowIfError(convert::ToFamilyDescriptor(desc.columns[i], &families[i]));
  }
  (void)splitKeys;
  ThrowIfError(store_->CreateTable(convert::FullTableName(desc.tableName), std::move(families)));
}

void ThbaseHandler::deleteTable(const thrift2::TTableName& tableName) {
  ThrowIfError(store_->DeleteTable(convert::FullTableName(tableName)));
}

void ThbaseHandler::truncateTable(const thrift2::TTableName& tableName, bool preserveSplits) {
  (void)preserveSplits;
  Describe(tableName);
  thrift2_errors::ThrowTIOError("truncateTable is not built yet", false);
}

void ThbaseHandler::enableTable(const thrift2::TTableName& tableName) {
  ThrowIfError(store_->EnableTable(convert::FullTableName(tableName)));
}

void ThbaseHandler::disableTable(const thrift2::TTableName& tableName) {
  ThrowIfError(store_->DisableTable(convert::FullTableName(tableName)));
}

bool ThbaseHandler::isTableEnabled(const thrift2::TTableName& tableName) {
  return Describe(tableName)->enabled;
}

bool ThbaseHandler::isTableDisabled(const thrift2::TTableName& tableName) {
  return !Describe(tableName)->enabled;
}

bool ThbaseHandler::isTableAvailable(const thrift2::TTableName& tableName) {
  std::shared_ptr<const storage::TableDescriptor> table;
  // A missing or disabled table is simply not available: no exception.
  return store_->DescribeTable(convert::FullTableName(tableName), &table).ok() && table->enabled;
}

bool ThbaseHandler::isTableAvailableWithSplit(const thrift2::TTableName& tableName,
                                              const std::vector<std::string>& splitKeys) {
  (void)splitKeys;
  return isTableAvailable(tableName);
}

void ThbaseHandler::addColumnFamily(const thrift2::TTableName& tableName,
                                    const thrift2::TColumnFamilyDescriptor& column) {
  (void)column;
  Describe(tableName);
  thrift2_errors::ThrowTIOError("addColumnFamily is not built yet", false);
}

void ThbaseHandler::deleteColumnFamily(const thrift2::TTableName& tableName,
                                       const std::string& column) {
  (void)column;
  Describe(tableName);
  thrift2_errors::ThrowTIOError("deleteColumnFamily is not built yet", false);
}

void ThbaseHandler::modifyColumnFamily(const thrift2::TTableName& tableName,
                                       const thrift2::TColumnFamilyDescriptor& column) {
  (void)column;
  Describe(tableName);
  thrift2_errors::ThrowTIOError("modifyColumnFamily is not built yet", false);
}

void ThbaseHandler::modifyTable(const thrift2::TTableDescriptor& desc) {
  Describe(desc.tableName);
  thrift2_errors::ThrowTIOError("modifyTable is not built yet", false);
}

// ==================================================================== namespaces

void ThbaseHandler::createNamespace(const thrift2::TNamespaceDescriptor& namespaceDesc) {
  ThrowIfError(store_->CreateNamespace(namespaceDesc.name));
}

void ThbaseHandler::modifyNamespace(const thrift2::TNamespaceDescriptor& namespaceDesc) {
  TablesOfNamespace(namespaceDesc.name);
  thrift2_errors::ThrowTIOError("modifyNamespace is not built yet", false);
}

void ThbaseHandler::deleteNamespace(const std::string& name) {
  ThrowIfError(store_->DeleteNamespace(name));
}

void ThbaseHandler::getNamespaceDescriptor(thrift2::TNamespaceDescriptor& _return,
                                           const std::string& name) {
  TablesOfNamespace(name);
  _return.name = name;
  _return.__set_configuration({});
}

void ThbaseHandler::listNamespaceDescriptors(
    std::vector<thrift2::TNamespaceDescriptor>& _return) {
  for (const std::string& name : store_->ListNamespaces()) {
    thrift2::TNamespaceDescriptor descriptor;
    descriptor.name = name;
    descriptor.__set_configuration({});
    _return.push_back(std::move(descriptor));
  }
}

void ThbaseHandler::listNamespaces(std::vector<std::string>& _return) {
  _return = store_->ListNamespaces();
}

}  // namespace hbemu::server
