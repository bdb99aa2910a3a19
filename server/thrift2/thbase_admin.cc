// THBaseService's table and namespace administration (HBase's Admin calls).
#include <algorithm>
#include <tuple>
#include <utility>

#include "server/gateway/application_error.h"
#include "server/gateway/regions.h"
#include "server/gateway/system_tables.h"

#include "server/thrift2/convert.h"
#include "server/thrift2/descriptors.h"
#include "server/thrift2/errors.h"
#include "server/thrift2/table_pattern.h"
#include "server/thrift2/thbase_handler.h"

namespace hbemu::server {

using storage::Status;
using thrift2_errors::ThrowIfError;
using thrift2_errors::ThrowIfMasterError;
namespace convert = thrift2_convert;

namespace {

bool IsSystemTable(const storage::TableDescriptor& table) { return table.name.ns == "hbase"; }

}  // namespace

std::shared_ptr<const storage::TableDescriptor> ThbaseHandler::Describe(
    const thrift2::TTableName& name) {
  std::shared_ptr<const storage::TableDescriptor> table;
  const std::string full_name = convert::FullTableName(name);
  const Status s = store_->DescribeTable(full_name, &table);
  if (s.code() == Status::Code::kTableNotFound) {
    if (auto system = FindSystemTable(full_name)) return system;
  }
  ThrowIfError(s);
  return table;
}

namespace {

// HBase lists tables sorted by namespace, then name.
void SortByName(std::vector<std::shared_ptr<const storage::TableDescriptor>>* tables) {
  std::sort(tables->begin(), tables->end(), [](const auto& a, const auto& b) {
    return std::tie(a->name.ns, a->name.qualifier) < std::tie(b->name.ns, b->name.qualifier);
  });
}

}  // namespace

std::vector<std::shared_ptr<const storage::TableDescriptor>> ThbaseHandler::TablesMatching(
    const std::optional<std::string>& regex, bool include_sys_tables) {
  std::unique_ptr<TablePattern> pattern;
  if (regex.has_value()) ThrowIfError(TablePattern::Compile(*regex, &pattern));
  std::vector<std::shared_ptr<const storage::TableDescriptor>> candidates = store_->ListTables();
  if (include_sys_tables) {
    candidates.insert(candidates.end(), SystemTables().begin(), SystemTables().end());
    SortByName(&candidates);
  }
  std::vector<std::shared_ptr<const storage::TableDescriptor>> out;
  for (auto& table : candidates) {
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
  if (!known) ThrowIfMasterError(Status::NamespaceNotFound(ns));
  std::vector<std::shared_ptr<const storage::TableDescriptor>> out;
  for (auto& table : store_->ListTables()) {
    if (table->name.ns == ns) out.push_back(std::move(table));
  }
  if (ns == "hbase") {
    out.insert(out.end(), SystemTables().begin(), SystemTables().end());
    SortByName(&out);
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
  // An empty list asks HBase's master for every user table.
  if (tables.empty()) return TableDescriptorsByPattern(&_return, std::nullopt, false);
  // Every name is made a TableName before any is looked up: one illegal name fails the call.
  for (const thrift2::TTableName& name : tables) ThrowIfIllegalTableName(convert::FullTableName(name));
  for (const thrift2::TTableName& name : tables) {
    std::shared_ptr<const storage::TableDescriptor> table;
    const std::string full_name = convert::FullTableName(name);
    // Unknown names are skipped, as HBase's listTableDescriptors(List) does; the catalog
    // tables are listed when asked for by name.
    if (!store_->DescribeTable(full_name, &table).ok()) table = FindSystemTable(full_name);
    if (table == nullptr) continue;
    _return.push_back(convert::ToTTableDescriptor(*table));
  }
}

bool ThbaseHandler::tableExists(const thrift2::TTableName& tableName) {
  std::shared_ptr<const storage::TableDescriptor> table;
  const std::string full_name = convert::FullTableName(tableName);
  // Refused before the lookup (no false): application_error.h.
  ThrowIfIllegalTableName(full_name);
  return store_->DescribeTable(full_name, &table).ok() || FindSystemTable(full_name) != nullptr;
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
  storage::TableDescriptor spec;
  ThrowIfError(convert::ToTableSpec(desc, &spec));
  spec.split_keys = splitKeys;
  const std::string full_name = convert::FullTableName(desc.tableName);
  // hbase:meta and hbase:namespace exist in HBase, though not in the store; other tables may
  // be created in the hbase namespace, as HBase 2.6 allows (they count as system tables).
  if (FindSystemTable(full_name) != nullptr) ThrowIfMasterError(Status::TableExists(full_name));
  ThrowIfMasterError(store_->CreateTable(full_name, std::move(spec)));
}

void ThbaseHandler::deleteTable(const thrift2::TTableName& tableName) {
  ThrowIfMasterError(store_->DeleteTable(convert::FullTableName(tableName)));
}

void ThbaseHandler::truncateTable(const thrift2::TTableName& tableName, bool preserveSplits) {
  ThrowIfMasterError(store_->TruncateTable(convert::FullTableName(tableName), preserveSplits));
}

void ThbaseHandler::enableTable(const thrift2::TTableName& tableName) {
  // The enable procedure's failure reaches the client unwrapped: no class in the message.
  ThrowIfError(store_->EnableTable(convert::FullTableName(tableName)));
}

void ThbaseHandler::disableTable(const thrift2::TTableName& tableName) {
  ThrowIfMasterError(store_->DisableTable(convert::FullTableName(tableName)));
}

bool ThbaseHandler::isTableEnabled(const thrift2::TTableName& tableName) {
  return Describe(tableName)->enabled;
}

bool ThbaseHandler::isTableDisabled(const thrift2::TTableName& tableName) {
  return !Describe(tableName)->enabled;
}

bool ThbaseHandler::isTableAvailable(const thrift2::TTableName& tableName) {
  std::shared_ptr<const storage::TableDescriptor> table;
  const std::string full_name = convert::FullTableName(tableName);
  ThrowIfIllegalTableName(full_name);  // not a false: application_error.h
  // The catalog tables are always online.
  if (FindSystemTable(full_name) != nullptr) return true;
  // A missing or disabled table is simply not available: no exception.
  return store_->DescribeTable(full_name, &table).ok() && table->enabled;
}

bool ThbaseHandler::isTableAvailableWithSplit(const thrift2::TTableName& tableName,
                                              const std::vector<std::string>& splitKeys) {
  if (!isTableAvailable(tableName)) return false;
  // HBase's admin counts the regions that start at "" or at one of the given keys and calls
  // the table available when that is one more than the number of keys given.
  size_t matching = 0;
  for (const RegionView& region : RegionsOf(*Describe(tableName))) {
    if (region.start_key.empty() ||
        std::find(splitKeys.begin(), splitKeys.end(), region.start_key) != splitKeys.end()) {
      ++matching;
    }
  }
  return matching == splitKeys.size() + 1;
}

void ThbaseHandler::addColumnFamily(const thrift2::TTableName& tableName,
                                    const thrift2::TColumnFamilyDescriptor& column) {
  storage::FamilyDescriptor family;
  ThrowIfError(convert::ToFamilyDescriptor(column, &family));
  ThrowIfMasterError(store_->AddFamily(convert::FullTableName(tableName), std::move(family)));
}

void ThbaseHandler::deleteColumnFamily(const thrift2::TTableName& tableName,
                                       const std::string& column) {
  ThrowIfMasterError(store_->DeleteFamily(convert::FullTableName(tableName), column));
}

void ThbaseHandler::modifyColumnFamily(const thrift2::TTableName& tableName,
                                       const thrift2::TColumnFamilyDescriptor& column) {
  storage::FamilyDescriptor family;
  ThrowIfError(convert::ToFamilyDescriptor(column, &family));
  ThrowIfMasterError(store_->ModifyFamily(convert::FullTableName(tableName), std::move(family)));
}

void ThbaseHandler::modifyTable(const thrift2::TTableDescriptor& desc) {
  storage::TableDescriptor spec;
  ThrowIfError(convert::ToTableSpec(desc, &spec));
  ThrowIfMasterError(store_->ModifyTable(convert::FullTableName(desc.tableName), spec));
}

// ==================================================================== namespaces

void ThbaseHandler::createNamespace(const thrift2::TNamespaceDescriptor& namespaceDesc) {
  const Status s = store_->CreateNamespace(namespaceDesc.name, namespaceDesc.configuration);
  if (s.code() == Status::Code::kInvalidArgument) {
    // HBase's admin client retries the master's rejection of an illegal name until it gives up.
    thrift2_errors::ThrowTIOError("Failed after attempts=16, exceptions:\n" +
                                      std::string("java.lang.IllegalArgumentException: ") +
                                      s.message(),
                                  true);
  }
  ThrowIfMasterError(s);
}

void ThbaseHandler::modifyNamespace(const thrift2::TNamespaceDescriptor& namespaceDesc) {
  ThrowIfMasterError(store_->ModifyNamespace(namespaceDesc.name, namespaceDesc.configuration));
}

void ThbaseHandler::deleteNamespace(const std::string& name) {
  ThrowIfMasterError(store_->DeleteNamespace(name));
}

void ThbaseHandler::getNamespaceDescriptor(thrift2::TNamespaceDescriptor& _return,
                                           const std::string& name) {
  storage::NamespaceDescriptor ns;
  ThrowIfMasterError(store_->DescribeNamespace(name, &ns));
  _return = convert::ToTNamespaceDescriptor(ns);
}

void ThbaseHandler::listNamespaceDescriptors(
    std::vector<thrift2::TNamespaceDescriptor>& _return) {
  for (const storage::NamespaceDescriptor& ns : store_->ListNamespaceDescriptors()) {
    _return.push_back(convert::ToTNamespaceDescriptor(ns));
  }
}

void ThbaseHandler::listNamespaces(std::vector<std::string>& _return) {
  _return = store_->ListNamespaces();
}

}  // namespace hbemu::server
