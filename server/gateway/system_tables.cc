#include "server/gateway/system_tables.h"

#include <limits>
#include <utility>

namespace hbemu::server {
namespace {

// hbase:meta's families are ROWCOL-bloomed and ROW_INDEX_V1-encoded; hbase:namespace's use
// the defaults.
storage::FamilyDescriptor CatalogFamily(std::string name, int32_t versions, int32_t block_size,
                                        bool meta) {
  storage::FamilyDescriptor f;
  f.name = std::move(name);
  f.max_versions = versions;
  f.in_memory = true;
  f.block_size = block_size;
  if (meta) {
    f.bloom_filter = "ROWCOL";
    f.data_block_encoding = "ROW_INDEX_V1";
  }
  return f;
}

std::shared_ptr<const storage::TableDescriptor> MakeTable(
    std::string qualifier, std::vector<storage::FamilyDescriptor> families,
    std::map<std::string, std::string> values) {
  auto table = std::make_shared<storage::TableDescriptor>();
  table->name = storage::TableName{"hbase", std::move(qualifier)};
  table->families = std::move(families);
  table->values = std::move(values);
  return table;
}

}  // namespace

const std::vector<std::shared_ptr<const storage::TableDescriptor>>& SystemTables() {
  static const auto* tables = new std::vector<std::shared_ptr<const storage::TableDescriptor>>{
      MakeTable("meta",
                {CatalogFamily("info", 3, 8192, true),
                 CatalogFamily("rep_barrier", std::numeric_limits<int32_t>::max(), 65536, true),
                 CatalogFamily("table", 3, 8192, true)},
                {{"IS_META", "true"},
                 {"coprocessor$1",
                  "|org.apache.hadoop.hbase.coprocessor.MultiRowMutationEndpoint|536870911|"},
                 {"hbase.store.file-tracker.impl", "DEFAULT"}}),
      MakeTable("namespace", {CatalogFamily("info", 10, 8192, false)},
                {{"hbase.store.file-tracker.impl", "DEFAULT"}}),
  };
  return *tables;
}

std::shared_ptr<const storage::TableDescriptor> FindSystemTable(std::string_view full_name) {
  for (const auto& table : SystemTables()) {
    if (full_name == "hbase:" + table->name.qualifier) return table;
  }
  return nullptr;
}

}  // namespace hbemu::server
