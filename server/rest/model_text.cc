#include "server/rest/model_text.h"

#include <cstdio>

namespace hbemu::server::rest {

std::string EncodeVersionText(const VersionModel& m) {
  return "rest " + m.rest_version + " [JVM: " + m.jvm_version + "] [OS: " + m.os_version +
         "] [Server: " + m.server_version + "] [Jersey: " + m.jersey_version +
         "] [Version: " + m.version + "] [Revision: " + m.revision + "]\n";
}

std::string EncodeStorageClusterVersionText(const StorageClusterVersionModel& m) {
  return m.version;
}

std::string EncodeTableListText(const TableListModel& m) {
  std::string out;
  for (const TableModel& table : m.tables) out += table.name + "\n";
  return out;
}

std::string EncodeNamespacesText(const NamespacesModel& m) {
  std::string out;
  for (const std::string& ns : m.namespaces) out += ns + "\n";
  return out;
}

std::string EncodeNamespacesInstanceText(const NamespacesInstanceModel& m) {
  std::string out = "{NAME => '" + m.namespace_name + "'";
  for (const auto& [key, value] : m.properties) out += ", " + key + " => '" + value + "'";
  return out + "}";
}

std::string EncodeTableSchemaText(const TableSchemaModel& m) {
  // "NAME=>" without a space is HBase's spelling for the table (its families have the space).
  std::string out = "{ NAME=> '" + m.name + "'";
  for (const auto& [key, value] : m.attrs) out += ", " + key + " => '" + value + "'";
  if (!m.columns.empty()) {
    out += ", COLUMNS => [ ";
    for (size_t i = 0; i < m.columns.size(); ++i) {
      if (i > 0) out += ", ";
      out += "{ NAME => '" + m.columns[i].name + "'";
      for (const auto& [key, value] : m.columns[i].attrs) out += ", " + key + " => '" + value + "'";
      out += " }";
    }
    out += " ]";
  }
  return out + " }";
}

std::string EncodeTableInfoText(const TableInfoModel& m) {
  std::string out;
  for (const TableRegionModel& r : m.regions) {
    out += r.name + " [\n  id=" + std::to_string(r.id) + "\n  startKey='" + r.start_key +
           "'\n  endKey='" + r.end_key + "'\n  location='" + r.location + "'\n]\n\n";
  }
  return out;
}

std::string EncodeStorageClusterStatusText(const StorageClusterStatusModel& m) {
  char summary[160];
  std::snprintf(summary, sizeof(summary), "%zu live servers, %zu dead servers, %.4f average load\n\n",
                m.live_nodes.size(), m.dead_nodes.size(), m.average_load);
  std::string out = summary;
  if (!m.live_nodes.empty()) {
    out += std::to_string(m.live_nodes.size()) + " live servers\n";
    for (const auto& node : m.live_nodes) {
      out += "    " + node.name + " " + std::to_string(node.start_code) +
             "\n        requests=" + std::to_string(node.requests) +
             ", regions=" + std::to_string(node.regions.size()) +
             "\n        heapSizeMB=" + std::to_string(node.heap_size_mb) +
             "\n        maxHeapSizeMB=" + std::to_string(node.max_heap_size_mb) + "\n\n";
      for (const auto& r : node.regions) {
        // "storefiless" is HBase's spelling.
        out += "        " + r.name + "\n            stores=" + std::to_string(r.stores) +
               "\n            storefiless=" + std::to_string(r.storefiles) +
               "\n            storefileSizeMB=" + std::to_string(r.storefile_size_mb) +
               "\n            memstoreSizeMB=" + std::to_string(r.memstore_size_mb) +
               "\n            storefileIndexSizeKB=" + std::to_string(r.storefile_index_size_kb) +
               "\n            readRequestsCount=" + std::to_string(r.read_requests_count) +
               "\n            writeRequestsCount=" + std::to_string(r.write_requests_count) +
               "\n            rootIndexSizeKB=" + std::to_string(r.root_index_size_kb) +
               "\n            totalStaticIndexSizeKB=" + std::to_string(r.total_static_index_size_kb) +
               "\n            totalStaticBloomSizeKB=" + std::to_string(r.total_static_bloom_size_kb) +
               "\n            totalCompactingKVs=" + std::to_string(r.total_compacting_kvs) +
               "\n            currentCompactedKVs=" + std::to_string(r.current_compacted_kvs) + "\n";
      }
      out += "\n";
    }
  }
  if (!m.dead_nodes.empty()) {
    out += "\n" + std::to_string(m.dead_nodes.size()) + " dead servers\n";
    for (const std::string& dead : m.dead_nodes) out += "    " + dead + "\n";
  }
  return out;
}

}  // namespace hbemu::server::rest
