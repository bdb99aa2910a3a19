#include "server/rest/model_protobuf.h"

#include <climits>
#include <cstdint>

#include "hbase_rest.pb.h"

namespace hbemu::server::rest {

namespace {

namespace pb = hbemu::restpb;

std::string Serialize(const google::protobuf::MessageLite& m) {
  std::string out;
  m.SerializeToString(&out);
  return out;
}

// Integer.parseInt as HBase applies it to an attribute; false when it would throw.
bool ParseInt32(const std::string& text, int32_t* out) {
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used != text.size() || v < INT32_MIN || v > INT32_MAX) return false;
    *out = static_cast<int32_t>(v);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// HBase's attribute maps: a later value for the same name replaces the earlier one.
void SetAttribute(AttributeList* attrs, const std::string& name, std::string value) {
  for (auto& [key, existing] : *attrs) {
    if (key == name) {
      existing = std::move(value);
      return;
    }
  }
  attrs->emplace_back(name, std::move(value));
}

template <typename Message>
BodyStatus Parse(std::string_view body, const char* model, Message* m) {
  if (body.size() > static_cast<size_t>(INT_MAX) ||
      !m->ParsePartialFromArray(body.data(), static_cast<int>(body.size()))) {
    return BodyStatus::ServerError(std::string("body is not a valid ") + model + " message");
  }
  // HBase's reader merges the message without checking it; its resource then fails on the
  // missing value (a Row without a key: "Row length is 0"), a RuntimeException it answers 400.
  if (!m->IsInitialized()) {
    return BodyStatus::ResourceBadRequest(std::string(model) +
                                          " message missing required fields: " +
                                          m->InitializationErrorString());
  }
  return BodyStatus::Ok();
}

// A minimal walk of protobuf wire bytes: each field's number and, for length-delimited ones,
// its bytes. False on malformed input (the parse that follows reports it).
class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : bytes_(bytes) {}
  bool Done() const { return pos_ >= bytes_.size(); }
  bool Next(uint32_t* field, std::string_view* payload) {
    uint64_t key = 0;
    if (!Varint(&key)) return false;
    *field = static_cast<uint32_t>(key >> 3);
    *payload = std::string_view();
    switch (key & 7) {
      case 0: { uint64_t ignored; return Varint(&ignored); }
      case 1: return Skip(8);
      case 5: return Skip(4);
      case 2: {
        uint64_t len = 0;
        if (!Varint(&len) || len > bytes_.size() - pos_) return false;
        *payload = bytes_.substr(pos_, len);
        pos_ += len;
        return true;
      }
      default: return false;
    }
  }

 private:
  bool Varint(uint64_t* out) {
    *out = 0;
    for (int shift = 0; shift < 64 && pos_ < bytes_.size(); shift += 7) {
      const auto b = static_cast<uint8_t>(bytes_[pos_++]);
      *out |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  bool Skip(size_t n) {
    if (n > bytes_.size() - pos_) return false;
    pos_ += n;
    return true;
  }
  std::string_view bytes_;
  size_t pos_ = 0;
};

// Rows plus cells of CellSet bytes, counted up to the first fault.
int64_t CountCellSetElements(std::string_view body) {
  int64_t count = 0;
  WireReader rows(body);
  uint32_t field = 0;
  std::string_view row;
  while (!rows.Done() && rows.Next(&field, &row)) {
    if (field != 1) continue;
    ++count;
    WireReader cells(row);
    std::string_view cell;
    while (!cells.Done() && cells.Next(&field, &cell)) {
      if (field == 2) ++count;
    }
  }
  return count;
}

}  // namespace

// ----------------------------------------------------------------------------- encoders

std::string EncodeCellSetProtobuf(const CellSetModel& model) {
  pb::CellSet m;
  for (const RowModel& row : model.rows) {
    pb::CellSet::Row* r = m.add_rows();
    r->set_key(row.key);
    for (const CellModel& cell : row.cells) {
      pb::Cell* c = r->add_values();
      c->set_column(cell.column);
      if (cell.timestamp) c->set_timestamp(*cell.timestamp);
      c->set_data(cell.value);
    }
  }
  return Serialize(m);
}

std::string EncodeTableListProtobuf(const TableListModel& model) {
  pb::TableList m;
  for (const TableModel& table : model.tables) m.add_name(table.name);
  return Serialize(m);
}

std::string EncodeTableSchemaProtobuf(const TableSchemaModel& model) {
  pb::TableSchema m;
  m.set_name(model.name);
  for (const auto& [name, value] : model.attrs) {
    pb::TableSchema::Attribute* a = m.add_attrs();
    a->set_name(name);
    a->set_value(value);
  }
  for (const ColumnSchemaModel& column : model.columns) {
    pb::ColumnSchema* c = m.add_columns();
    c->set_name(column.name);
    for (const auto& [name, value] : column.attrs) {
      pb::ColumnSchema::Attribute* a = c->add_attrs();
      a->set_name(name);
      a->set_value(value);
    }
    int32_t number = 0;
    if (const std::string* ttl = FindAttribute(column.attrs, "TTL"); ttl && ParseInt32(*ttl, &number)) {
      c->set_ttl(number);
    }
    if (const std::string* v = FindAttribute(column.attrs, "VERSIONS"); v && ParseInt32(*v, &number)) {
      c->set_maxversions(number);
    }
    if (const std::string* compression = FindAttribute(column.attrs, "COMPRESSION")) {
      c->set_compression(*compression);
    }
  }
  if (const std::string* read_only = FindAttribute(model.attrs, "READONLY")) {
    // Boolean.parseBoolean: "true" in any case, everything else false.
    std::string lower;
    for (char ch : *read_only) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    m.set_readonly(lower == "true");
  }
  return Serialize(m);
}

std::string EncodeTableInfoProtobuf(const TableInfoModel& model) {
  pb::TableInfo m;
  m.set_name(model.name);
  for (const TableRegionModel& region : model.regions) {
    pb::TableInfo::Region* r = m.add_regions();
    r->set_name(region.name);
    r->set_startkey(region.start_key);
    r->set_endkey(region.end_key);
    r->set_id(region.id);
    r->set_location(region.location);
  }
  return Serialize(m);
}

std::string EncodeVersionProtobuf(const VersionModel& model) {
  pb::Version m;
  m.set_restversion(model.rest_version);
  m.set_jvmversion(model.jvm_version);
  m.set_osversion(model.os_version);
  m.set_serverversion(model.server_version);
  m.set_jerseyversion(model.jersey_version);
  m.set_version(model.version);
  m.set_revision(model.revision);
  return Serialize(m);
}

std::string EncodeStorageClusterStatusProtobuf(const StorageClusterStatusModel& model) {
  pb::StorageClusterStatus m;
  for (const auto& node : model.live_nodes) {
    pb::StorageClusterStatus::Node* n = m.add_livenodes();
    n->set_name(node.name);
    n->set_startcode(node.start_code);
    n->set_requests(node.requests);
    n->set_heapsizemb(node.heap_size_mb);
    n->set_maxheapsizemb(node.max_heap_size_mb);
    for (const auto& region : node.regions) {
      pb::StorageClusterStatus::Region* r = n->add_regions();
      r->set_name(region.name);
      r->set_stores(region.stores);
      r->set_storefiles(region.storefiles);
      r->set_storefilesizemb(region.storefile_size_mb);
      r->set_memstoresizemb(region.memstore_size_mb);
      r->set_storefileindexsizekb(region.storefile_index_size_kb);
      r->set_readrequestscount(region.read_requests_count);
      r->set_writerequestscount(region.write_requests_count);
      r->set_rootindexsizekb(region.root_index_size_kb);
      r->set_totalstaticindexsizekb(region.total_static_index_size_kb);
      r->set_totalstaticbloomsizekb(region.total_static_bloom_size_kb);
      r->set_totalcompactingkvs(region.total_compacting_kvs);
      r->set_currentcompactedkvs(region.current_compacted_kvs);
    }
  }
  for (const std::string& dead : model.dead_nodes) m.add_deadnodes(dead);
  m.set_regions(model.regions);
  m.set_requests(model.requests);
  m.set_averageload(model.average_load);
  return Serialize(m);
}

std::string EncodeNamespacesProtobuf(const NamespacesModel& model) {
  pb::Namespaces m;
  for (const std::string& ns : model.namespaces) m.add_namespace_(ns);
  return Serialize(m);
}

std::string EncodeNamespacesInstanceProtobuf(const NamespacesInstanceModel& model) {
  pb::NamespaceProperties m;
  for (const auto& [key, value] : model.properties) {
    pb::NamespaceProperties::Property* p = m.add_props();
    p->set_key(key);
    p->set_value(value);
  }
  return Serialize(m);
}

std::string EncodeScannerProtobuf(const ScannerModel& model) {
  pb::Scanner m;
  if (!model.start_row.empty()) m.set_startrow(model.start_row);
  if (!model.end_row.empty()) m.set_endrow(model.end_row);
  for (const std::string& c : model.columns) m.add_columns(c);
  if (model.start_time != 0) m.set_starttime(model.start_time);
  if (model.end_time != 0) m.set_endtime(model.end_time);
  m.set_batch(model.batch);
  if (model.caching > 0) m.set_caching(model.caching);
  m.set_maxversions(model.max_versions);
  if (model.filter) m.set_filter(*model.filter);
  for (const std::string& l : model.labels) m.add_labels(l);
  m.set_cacheblocks(model.cache_blocks);
  return Serialize(m);
}

// ----------------------------------------------------------------------------- decoders

BodyStatus DecodeCellSetProtobuf(std::string_view body, CellSetModel* out,
                                 const BodyBounds& bounds) {
  const int64_t elements = CountCellSetElements(body);
  if (elements > bounds.max_elements) {
    return BodyStatus::ServerError("body holds more rows and cells than its bound (bound " +
                                   std::to_string(bounds.max_elements) + ")");
  }
  pb::CellSet m;
  BodyStatus s = Parse(body, "CellSet", &m);
  if (!s.ok()) return s;
  *out = CellSetModel();
  out->rows.reserve(m.rows_size());
  for (pb::CellSet::Row& r : *m.mutable_rows()) {
    RowModel row;
    row.key = std::move(*r.mutable_key());
    row.cells.reserve(r.values_size());
    for (pb::Cell& c : *r.mutable_values()) {
      CellModel cell;
      cell.column = std::move(*c.mutable_column());
      if (c.has_timestamp()) cell.timestamp = c.timestamp();
      cell.value = std::move(*c.mutable_data());
      row.cells.push_back(std::move(cell));
    }
    out->rows.push_back(std::move(row));
  }
  return BodyStatus::Ok();
}

BodyStatus DecodeTableSchemaProtobuf(std::string_view body, TableSchemaModel* out) {
  pb::TableSchema m;
  BodyStatus s = Parse(body, "TableSchema", &m);
  if (!s.ok()) return s;
  *out = TableSchemaModel();
  out->name = m.name();
  for (const auto& a : m.attrs()) SetAttribute(&out->attrs, a.name(), a.value());
  if (m.has_readonly()) SetAttribute(&out->attrs, "READONLY", m.readonly() ? "true" : "false");
  for (const pb::ColumnSchema& c : m.columns()) {
    ColumnSchemaModel column;
    column.name = c.name();
    for (const auto& a : c.attrs()) SetAttribute(&column.attrs, a.name(), a.value());
    if (c.has_ttl()) SetAttribute(&column.attrs, "TTL", std::to_string(c.ttl()));
    if (c.has_maxversions()) SetAttribute(&column.attrs, "VERSIONS", std::to_string(c.maxversions()));
    if (c.has_compression()) SetAttribute(&column.attrs, "COMPRESSION", c.compression());
    out->columns.push_back(std::move(column));
  }
  return BodyStatus::Ok();
}

BodyStatus DecodeNamespacesInstanceProtobuf(std::string_view body, NamespacesInstanceModel* out) {
  pb::NamespaceProperties m;
  BodyStatus s = Parse(body, "NamespaceProperties", &m);
  if (!s.ok()) return s;
  out->properties.clear();
  for (const auto& p : m.props()) out->properties.emplace_back(p.key(), p.value());
  return BodyStatus::Ok();
}

BodyStatus DecodeScannerProtobuf(std::string_view body, ScannerModel* out) {
  pb::Scanner m;
  BodyStatus s = Parse(body, "Scanner", &m);
  if (!s.ok()) return s;
  *out = ScannerModel();
  if (m.has_startrow()) out->start_row = m.startrow();
  if (m.has_endrow()) out->end_row = m.endrow();
  for (const std::string& c : m.columns()) out->columns.push_back(c);
  if (m.has_batch()) out->batch = m.batch();
  if (m.has_caching()) out->caching = m.caching();
  if (m.has_starttime()) out->start_time = m.starttime();
  if (m.has_endtime()) out->end_time = m.endtime();
  if (m.has_maxversions()) out->max_versions = m.maxversions();
  if (m.has_filter()) out->filter = m.filter();
  for (const std::string& l : m.labels()) out->labels.push_back(l);
  if (m.has_cacheblocks()) out->cache_blocks = m.cacheblocks();
  return BodyStatus::Ok();
}

}  // namespace hbemu::server::rest
