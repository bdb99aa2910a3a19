#include "server/rest/model_json.h"

#include <cstdio>

#include "server/rest/base64.h"
#include "server/rest/java_format.h"

namespace hbemu::server::rest {

namespace {

// A JSON text built in the order the calls come, escaping as Jackson does.
class Writer {
 public:
  void BeginObject() { Separate(); out_.push_back('{'); first_ = true; }
  void EndObject() { out_.push_back('}'); first_ = false; }
  void BeginArray() { Separate(); out_.push_back('['); first_ = true; }
  void EndArray() { out_.push_back(']'); first_ = false; }
  void Key(std::string_view key) {
    Separate();
    Quote(key);
    out_.push_back(':');
    first_ = true;  // the value follows without a comma
  }
  void String(std::string_view s) { Separate(); Quote(s); }
  void Bytes(std::string_view b) { String(Base64Encode(b)); }
  void Int(int64_t v) { Separate(); out_ += std::to_string(v); }
  void Double(double v) { Separate(); out_ += JavaDouble(v); }
  void Null() { Separate(); out_ += "null"; }

  void Field(std::string_view key, std::string_view s) { Key(key); String(s); }
  void BytesField(std::string_view key, std::string_view b) { Key(key); Bytes(b); }
  void IntField(std::string_view key, int64_t v) { Key(key); Int(v); }

  std::string Take() { return std::move(out_); }

 private:
  void Separate() {
    if (!first_) out_.push_back(',');
    first_ = false;
  }
  void Quote(std::string_view s) {
    out_.push_back('"');
    for (char c : s) {
      const auto u = static_cast<unsigned char>(c);
      switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        case '\b': out_ += "\\b"; break;
        case '\f': out_ += "\\f"; break;
        default:
          if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04X", u);
            out_ += buf;
          } else {
            out_.push_back(c);
          }
      }
    }
    out_.push_back('"');
  }

  std::string out_;
  bool first_ = true;
};

void WriteAttributes(const AttributeList& attrs, Writer* w) {
  for (const auto& [name, value] : attrs) w->Field(name, value);
}

}  // namespace

// ----------------------------------------------------------------------------- encoders

std::string EncodeCellSetJson(const CellSetModel& model) {
  Writer w;
  w.BeginObject();
  w.Key("Row");
  w.BeginArray();
  for (const RowModel& row : model.rows) {
    w.BeginObject();
    w.BytesField("key", row.key);
    w.Key("Cell");
    w.BeginArray();
    for (const CellModel& cell : row.cells) {
      w.BeginObject();
      w.BytesField("column", cell.column);
      if (cell.timestamp) w.IntField("timestamp", *cell.timestamp);
      w.BytesField("$", cell.value);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.Take();
}

std::string EncodeTableListJson(const TableListModel& model) {
  Writer w;
  w.BeginObject();
  w.Key("table");
  w.BeginArray();
  for (const TableModel& table : model.tables) {
    w.BeginObject();
    w.Field("name", table.name);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.Take();
}

std::string EncodeTableSchemaJson(const TableSchemaModel& model) {
  // HBase writes the column families before the table's own attributes.
  Writer w;
  w.BeginObject();
  w.Field("name", model.name);
  w.Key("ColumnSchema");
  w.BeginArray();
  for (const ColumnSchemaModel& column : model.columns) {
    w.BeginObject();
    w.Field("name", column.name);
    WriteAttributes(column.attrs, &w);
    w.EndObject();
  }
  w.EndArray();
  WriteAttributes(model.attrs, &w);
  w.EndObject();
  return w.Take();
}

std::string EncodeTableInfoJson(const TableInfoModel& model) {
  Writer w;
  w.BeginObject();
  w.Field("name", model.name);
  w.Key("Region");
  w.BeginArray();
  for (const TableRegionModel& region : model.regions) {
    w.BeginObject();
    w.IntField("id", region.id);
    w.BytesField("startKey", region.start_key);
    w.BytesField("endKey", region.end_key);
    w.Field("location", region.location);
    w.Field("name", region.name);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return w.Take();
}

std::string EncodeVersionJson(const VersionModel& model) {
  Writer w;
  w.BeginObject();
  w.Field("Server", model.server_version);
  w.Field("Jersey", model.jersey_version);
  w.Field("Version", model.version);
  w.Field("Revision", model.revision);
  w.Field("REST", model.rest_version);
  w.Field("JVM", model.jvm_version);
  w.Field("OS", model.os_version);
  w.EndObject();
  return w.Take();
}

std::string EncodeStorageClusterVersionJson(const StorageClusterVersionModel& model) {
  Writer w;
  w.BeginObject();
  w.Field("Version", model.version);
  w.EndObject();
  return w.Take();
}

std::string EncodeStorageClusterStatusJson(const StorageClusterStatusModel& model) {
  Writer w;
  w.BeginObject();
  w.Key("LiveNodes");
  w.BeginArray();
  for (const auto& node : model.live_nodes) {
    w.BeginObject();
    w.Field("name", node.name);
    w.IntField("startCode", node.start_code);
    w.IntField("requests", node.requests);
    w.IntField("heapSizeMB", node.heap_size_mb);
    w.IntField("maxHeapSizeMB", node.max_heap_size_mb);
    w.Key("Region");
    w.BeginArray();
    for (const auto& r : node.regions) {
      w.BeginObject();
      w.BytesField("name", r.name);
      w.IntField("stores", r.stores);
      w.IntField("storefiles", r.storefiles);
      w.IntField("storefileSizeMB", r.storefile_size_mb);
      w.IntField("storefileIndexSizeKB", r.storefile_index_size_kb);
      w.IntField("readRequestsCount", r.read_requests_count);
      w.IntField("writeRequestsCount", r.write_requests_count);
      w.IntField("rootIndexSizeKB", r.root_index_size_kb);
      w.IntField("totalStaticIndexSizeKB", r.total_static_index_size_kb);
      w.IntField("totalStaticBloomSizeKB", r.total_static_bloom_size_kb);
      w.IntField("totalCompactingKVs", r.total_compacting_kvs);
      w.IntField("currentCompactedKVs", r.current_compacted_kvs);
      w.IntField("memStoreSizeMB", r.memstore_size_mb);  // last: HBase's getter is named apart
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("DeadNodes");
  w.BeginArray();
  for (const std::string& dead : model.dead_nodes) w.String(dead);
  w.EndArray();
  w.IntField("regions", model.regions);
  w.IntField("requests", model.requests);
  w.Key("averageLoad");
  w.Double(model.average_load);
  w.EndObject();
  return w.Take();
}

std::string EncodeNamespacesJson(const NamespacesModel& model) {
  Writer w;
  w.BeginObject();
  w.Key("Namespace");
  w.BeginArray();
  for (const std::string& ns : model.namespaces) w.String(ns);
  w.EndArray();
  w.EndObject();
  return w.Take();
}

std::string EncodeNamespacesInstanceJson(const NamespacesInstanceModel& model) {
  Writer w;
  w.BeginObject();
  w.Key("properties");
  if (model.properties.empty()) {
    w.Null();
  } else {
    w.BeginObject();
    for (const auto& [key, value] : model.properties) w.Field(key, value);
    w.EndObject();
  }
  w.EndObject();
  return w.Take();
}

}  // namespace hbemu::server::rest
