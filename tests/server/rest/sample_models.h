#pragma once

// The models behind bodies captured from HBase 2.6.1's REST gateway (tests of every codec
// compare against those bodies). Table "rmT" was created through the gateway with families
// "cf" and "f2" (VERSIONS 3); row "r1" holds cf:a=value1 @1000 and cf:b=<>&"' @1795958651628.

#include "server/rest/models.h"

namespace hbemu::server::rest::sample {

inline CellSetModel RowR1() {
  return CellSetModel{{RowModel{"r1",
                                {CellModel{"cf:a", 1000, "value1"},
                                 CellModel{"cf:b", 1795958651628, "<>&\"'"}}}}};
}

inline ColumnSchemaModel Family(const std::string& name, const std::string& versions) {
  return ColumnSchemaModel{name,
                           {{"INDEX_BLOCK_ENCODING", "NONE"},
                            {"VERSIONS", versions},
                            {"KEEP_DELETED_CELLS", "FALSE"},
                            {"DATA_BLOCK_ENCODING", "NONE"},
                            {"TTL", "2147483647"},
                            {"MIN_VERSIONS", "0"},
                            {"REPLICATION_SCOPE", "0"},
                            {"BLOOMFILTER", "ROW"},
                            {"IN_MEMORY", "false"},
                            {"COMPRESSION", "NONE"},
                            {"BLOCKCACHE", "true"},
                            {"BLOCKSIZE", "65536"}}};
}

inline TableSchemaModel SchemaRmT() {
  return TableSchemaModel{"rmT",
                          {{"IS_META", "false"}, {"hbase.store.file-tracker.impl", "DEFAULT"}},
                          {Family("cf", "1"), Family("f2", "3")}};
}

inline TableInfoModel RegionsRmT() {
  return TableInfoModel{"rmT",
                        {TableRegionModel{"rmT", 1795958646398, "", "", "127.0.0.1:16120",
                                          "rmT,,1795958646398.4dfb5e3e146795656024c15acc63ac01."}}};
}

inline VersionModel Version() {
  VersionModel v;
  v.rest_version = "0.0.3";
  v.jvm_version = "Debian 17.0.15-17.0.15+6-Debian-1deb12u1";
  v.os_version = "Linux 6.18.44-fc-v857 amd64";
  v.server_version = "jetty/9.4.56.v20240826";
  v.jersey_version = "";
  v.version = "2.6.1-hadoop3";
  v.revision = "7ed50b4dd742269a78875fb32112215f831284ff";
  return v;
}

inline TableListModel Tables() { return TableListModel{{{"rd1"}, {"rmT"}, {"sb_probe1"}}}; }

inline NamespacesModel Namespaces() { return NamespacesModel{{"default", "hbase"}}; }

inline NamespacesInstanceModel NamespaceRmns() {
  return NamespacesInstanceModel{"rmns", {{"a", "1"}, {"b", "2"}}};
}

// /status/cluster with its first region only (the capture listed four; each is one entry).
inline StorageClusterStatusModel Status() {
  StorageClusterStatusModel s;
  StorageClusterStatusModel::Node node;
  node.name = "127.0.0.1:16120";
  node.start_code = 1795958465016;
  node.requests = 82;
  node.heap_size_mb = 100;
  node.max_heap_size_mb = 2048;
  StorageClusterStatusModel::Region r;
  r.name = "hbase:meta,,1";
  r.stores = 3;
  r.read_requests_count = 22;
  r.write_requests_count = 24;
  r.memstore_size_mb = 1;
  node.regions.push_back(r);
  s.live_nodes.push_back(node);
  s.regions = 4;
  s.requests = 72;
  s.average_load = 4.0;
  return s;
}

}  // namespace hbemu::server::rest::sample
