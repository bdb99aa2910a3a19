#pragma once

// The data the REST gateway (HBase's "Stargate") exchanges, one struct per model class of
// HBase 2.6.1's hbase-rest module, with the same fields. The structs carry no encoding: the
// codecs (model_json.h, model_xml.h, model_protobuf.h, model_text.h) turn them into bodies and
// back. Bytes (row keys, columns, values, region names) are std::string holding raw bytes.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hbemu::server::rest {

// The media types the gateway negotiates. HBase accepts "application/protobuf" as a synonym of
// "application/x-protobuf" (both are the same representation).
enum class Representation {
  kText,         // text/plain
  kXml,          // text/xml
  kJson,         // application/json
  kProtobuf,     // application/x-protobuf, application/protobuf
  kOctetStream,  // application/octet-stream (a single cell's raw value)
};

// One cell. `column` is "family:qualifier" (or a bare family) as bytes.
struct CellModel {
  std::string column;
  // HBase leaves the timestamp at Long.MAX_VALUE ("latest") when a request omits it, and omits
  // the field on output in that case.
  std::optional<int64_t> timestamp;
  std::string value;
};

struct RowModel {
  std::string key;
  std::vector<CellModel> cells;
};

struct CellSetModel {
  std::vector<RowModel> rows;
};

struct TableModel {
  std::string name;
};

struct TableListModel {
  std::vector<TableModel> tables;
};

struct TableRegionModel {
  std::string table;  // the table the region belongs to; the region's name derives from it
  int64_t id = 0;     // region id (creation time in ms)
  std::string start_key;
  std::string end_key;
  std::string location;  // "host:port" of the serving region server
  // "<table>,<startKey>,<id>.<encoded>.", as server/gateway/regions.h's RegionView.name; HBase
  // derives it from the fields above, the door copies it.
  std::string name;
};

struct TableInfoModel {
  std::string name;
  std::vector<TableRegionModel> regions;
};

// Attributes keep HBase's order of insertion and its string form ("VERSIONS" -> "1",
// "IN_MEMORY" -> "false", ...): HBase's model stores them as a map of name to string.
using AttributeList = std::vector<std::pair<std::string, std::string>>;

// Returns the value of `name` in `attrs`, or nullptr.
inline const std::string* FindAttribute(const AttributeList& attrs, const std::string& name) {
  for (const auto& [key, value] : attrs) {
    if (key == name) return &value;
  }
  return nullptr;
}

struct ColumnSchemaModel {
  std::string name;
  AttributeList attrs;  // BLOCKCACHE, BLOCKSIZE, BLOOMFILTER, COMPRESSION, IN_MEMORY, TTL, VERSIONS...
};

struct TableSchemaModel {
  std::string name;
  AttributeList attrs;  // IS_META, READONLY, and any table attribute HBase reports
  std::vector<ColumnSchemaModel> columns;
};

// GET /version: the gateway's own versions.
struct VersionModel {
  std::string rest_version;
  std::string jvm_version;
  std::string os_version;
  std::string server_version;
  std::string jersey_version;
  std::string version;   // HBase's version (2.6.1 added it)
  std::string revision;  // HBase's source revision (2.6.1 added it)
};

// GET /version/cluster: HBase's version string.
struct StorageClusterVersionModel {
  std::string version;
};

struct StorageClusterStatusModel {
  struct Region {
    std::string name;  // full region name bytes
    int32_t stores = 0;
    int32_t storefiles = 0;
    int32_t storefile_size_mb = 0;
    int32_t memstore_size_mb = 0;
    int64_t storefile_index_size_kb = 0;
    int64_t read_requests_count = 0;
    int64_t write_requests_count = 0;
    int32_t root_index_size_kb = 0;
    int32_t total_static_index_size_kb = 0;
    int32_t total_static_bloom_size_kb = 0;
    int64_t total_compacting_kvs = 0;
    int64_t current_compacted_kvs = 0;
  };
  struct Node {
    std::string name;  // "host:port"
    int64_t start_code = 0;
    int64_t requests = 0;
    int32_t heap_size_mb = 0;
    int32_t max_heap_size_mb = 0;
    std::vector<Region> regions;
  };
  std::vector<Node> live_nodes;
  std::vector<std::string> dead_nodes;
  int32_t regions = 0;
  int64_t requests = 0;
  double average_load = 0;
};

struct NamespacesModel {
  std::vector<std::string> namespaces;
};

// GET /namespaces/NS (and the body of PUT/POST there). HBase keeps properties sorted by key
// on output; a body may carry them in any order.
struct NamespacesInstanceModel {
  std::string namespace_name;  // taken from the URL, never from the body
  std::vector<std::pair<std::string, std::string>> properties;
};

// A stateful scanner's specification (body of PUT/POST /T/scanner). Defaults are HBase's:
// an absent field means "unbounded".
struct ScannerModel {
  std::string start_row;
  std::string end_row;
  std::vector<std::string> columns;  // "family" or "family:qualifier"
  int32_t batch = std::numeric_limits<int32_t>::max();
  int32_t caching = -1;  // rows per fetch; -1 = the gateway's configured default
  int64_t start_time = 0;
  int64_t end_time = std::numeric_limits<int64_t>::max();
  int32_t max_versions = std::numeric_limits<int32_t>::max();
  std::optional<std::string> filter;  // the JSON filter tree (see filter_model.h)
  std::vector<std::string> labels;    // visibility labels
  bool cache_blocks = true;

  // Not part of 2.6.1's scanner body in any representation; the stateless scan
  // (/T/prefix*?limit=&reversed=...) fills these from its query string so both scan paths can
  // share one specification.
  std::optional<int32_t> limit;
  bool include_start_row = true;
  bool include_stop_row = false;
  bool reversed = false;
};

}  // namespace hbemu::server::rest
