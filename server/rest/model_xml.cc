#include "server/rest/model_xml.h"

#include <utility>
#include <vector>

#include "server/rest/base64.h"
#include "server/rest/java_format.h"

namespace hbemu::server::rest {

namespace {

constexpr char kDeclaration[] = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>";

// JAXB's escaping, in attributes and text alike: &, <, > and the double quote; apostrophes,
// newlines and control characters go out as they are.
void Escape(std::string_view s, std::string* out) {
  for (char c : s) {
    switch (c) {
      case '&': *out += "&amp;"; break;
      case '<': *out += "&lt;"; break;
      case '>': *out += "&gt;"; break;
      case '"': *out += "&quot;"; break;
      default: out->push_back(c);
    }
  }
}

using Attrs = std::vector<std::pair<std::string, std::string>>;

// An element's opening tag; `empty` closes it at once.
void Open(std::string_view name, const Attrs& attrs, bool empty, std::string* out) {
  out->push_back('<');
  out->append(name);
  for (const auto& [key, value] : attrs) {
    out->push_back(' ');
    out->append(key);
    *out += "=\"";
    Escape(value, out);
    out->push_back('"');
  }
  *out += empty ? "/>" : ">";
}

void Close(std::string_view name, std::string* out) {
  *out += "</";
  out->append(name);
  out->push_back('>');
}

// <name>text</name>
void TextElement(std::string_view name, std::string_view text, std::string* out) {
  Open(name, {}, false, out);
  Escape(text, out);
  Close(name, out);
}

std::string Str(int64_t v) { return std::to_string(v); }

}  // namespace

std::string EncodeCellSetXml(const CellSetModel& model) {
  std::string out = kDeclaration;
  Open("CellSet", {}, model.rows.empty(), &out);
  for (const RowModel& row : model.rows) {
    Open("Row", {{"key", Base64Encode(row.key)}}, row.cells.empty(), &out);
    for (const CellModel& cell : row.cells) {
      Attrs attrs{{"column", Base64Encode(cell.column)}};
      if (cell.timestamp) attrs.emplace_back("timestamp", Str(*cell.timestamp));
      Open("Cell", attrs, false, &out);
      out += Base64Encode(cell.value);
      Close("Cell", &out);
    }
    if (!row.cells.empty()) Close("Row", &out);
  }
  if (!model.rows.empty()) Close("CellSet", &out);
  return out;
}

std::string EncodeTableListXml(const TableListModel& model) {
  std::string out = kDeclaration;
  Open("TableList", {}, model.tables.empty(), &out);
  for (const TableModel& table : model.tables) Open("table", {{"name", table.name}}, true, &out);
  if (!model.tables.empty()) Close("TableList", &out);
  return out;
}

std::string EncodeTableSchemaXml(const TableSchemaModel& model) {
  std::string out = kDeclaration;
  Attrs attrs{{"name", model.name}};
  attrs.insert(attrs.end(), model.attrs.begin(), model.attrs.end());
  Open("TableSchema", attrs, model.columns.empty(), &out);
  for (const ColumnSchemaModel& column : model.columns) {
    Attrs column_attrs{{"name", column.name}};
    column_attrs.insert(column_attrs.end(), column.attrs.begin(), column.attrs.end());
    Open("ColumnSchema", column_attrs, true, &out);
  }
  if (!model.columns.empty()) Close("TableSchema", &out);
  return out;
}

std::string EncodeTableInfoXml(const TableInfoModel& model) {
  std::string out = kDeclaration;
  Open("TableInfo", {{"name", model.name}}, model.regions.empty(), &out);
  for (const TableRegionModel& r : model.regions) {
    Open("Region",
         {{"endKey", Base64Encode(r.end_key)},
          {"id", Str(r.id)},
          {"location", r.location},
          {"name", r.name},
          {"startKey", Base64Encode(r.start_key)}},
         true, &out);
  }
  if (!model.regions.empty()) Close("TableInfo", &out);
  return out;
}

std::string EncodeVersionXml(const VersionModel& model) {
  std::string out = kDeclaration;
  Open("Version",
       {{"JVM", model.jvm_version},
        {"Jersey", model.jersey_version},
        {"OS", model.os_version},
        {"REST", model.rest_version},
        {"Revision", model.revision},
        {"Server", model.server_version},
        {"Version", model.version}},
       true, &out);
  return out;
}

std::string EncodeStorageClusterVersionXml(const StorageClusterVersionModel& model) {
  std::string out = kDeclaration;
  Open("ClusterVersion", {{"Version", model.version}}, true, &out);
  return out;
}

std::string EncodeStorageClusterStatusXml(const StorageClusterStatusModel& model) {
  std::string out = kDeclaration;
  Open("ClusterStatus",
       {{"averageLoad", JavaDouble(model.average_load)},
        {"regions", Str(model.regions)},
        {"requests", Str(model.requests)}},
       false, &out);
  Open("DeadNodes", {}, model.dead_nodes.empty(), &out);
  for (const std::string& dead : model.dead_nodes) TextElement("Node", dead, &out);
  if (!model.dead_nodes.empty()) Close("DeadNodes", &out);
  Open("LiveNodes", {}, model.live_nodes.empty(), &out);
  for (const auto& node : model.live_nodes) {
    Open("Node",
         {{"heapSizeMB", Str(node.heap_size_mb)},
          {"maxHeapSizeMB", Str(node.max_heap_size_mb)},
          {"name", node.name},
          {"requests", Str(node.requests)},
          {"startCode", Str(node.start_code)}},
         node.regions.empty(), &out);
    for (const auto& r : node.regions) {
      Open("Region",
           {{"currentCompactedKVs", Str(r.current_compacted_kvs)},
            {"memStoreSizeMB", Str(r.memstore_size_mb)},
            {"name", Base64Encode(r.name)},
            {"readRequestsCount", Str(r.read_requests_count)},
            {"rootIndexSizeKB", Str(r.root_index_size_kb)},
            {"storefileIndexSizeKB", Str(r.storefile_index_size_kb)},
            {"storefileSizeMB", Str(r.storefile_size_mb)},
            {"storefiles", Str(r.storefiles)},
            {"stores", Str(r.stores)},
            {"totalCompactingKVs", Str(r.total_compacting_kvs)},
            {"totalStaticBloomSizeKB", Str(r.total_static_bloom_size_kb)},
            {"totalStaticIndexSizeKB", Str(r.total_static_index_size_kb)},
            {"writeRequestsCount", Str(r.write_requests_count)}},
           true, &out);
    }
    if (!node.regions.empty()) Close("Node", &out);
  }
  if (!model.live_nodes.empty()) Close("LiveNodes", &out);
  Close("ClusterStatus", &out);
  return out;
}

std::string EncodeNamespacesXml(const NamespacesModel& model) {
  std::string out = kDeclaration;
  Open("Namespaces", {}, model.namespaces.empty(), &out);
  for (const std::string& ns : model.namespaces) TextElement("Namespace", ns, &out);
  if (!model.namespaces.empty()) Close("Namespaces", &out);
  return out;
}

std::string EncodeNamespacesInstanceXml(const NamespacesInstanceModel& model) {
  std::string out = kDeclaration;
  if (model.properties.empty()) {
    Open("NamespaceProperties", {}, true, &out);
    return out;
  }
  out += "<NamespaceProperties><properties>";
  for (const auto& [key, value] : model.properties) {
    out += "<entry>";
    TextElement("key", key, &out);
    TextElement("value", value, &out);
    out += "</entry>";
  }
  out += "</properties></NamespaceProperties>";
  return out;
}

}  // namespace hbemu::server::rest
