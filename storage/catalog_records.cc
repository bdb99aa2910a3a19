#include "storage/catalog_records.h"

#include <map>

#include "storage/coding.h"

namespace hbemu::storage {
namespace {

// Version 1: the first release (families with versions, TTL, KEEP_DELETED_CELLS, in-memory,
// block cache, compression, bloom filter). Version 2 appends, per family, the remaining
// ColumnFamilyDescriptor fields and both maps, and per table the split keys, attributes and
// durability. Namespaces: version 1 holds the creation time, version 2 adds configuration.
constexpr uint8_t kTableRecordV1 = 1;
constexpr uint8_t kTableRecordV2 = 2;
constexpr uint8_t kNamespaceRecordV1 = 1;
constexpr uint8_t kNamespaceRecordV2 = 2;

void PutLengthPrefixed(std::string* dst, std::string_view s) {
  PutFixed32BE(dst, static_cast<uint32_t>(s.size()));
  dst->append(s.data(), s.size());
}

void PutMap(std::string* dst, const std::map<std::string, std::string>& m) {
  PutFixed32BE(dst, static_cast<uint32_t>(m.size()));
  for (const auto& [k, v] : m) {
    PutLengthPrefixed(dst, k);
    PutLengthPrefixed(dst, v);
  }
}

class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  bool U8(uint8_t* v) {
    if (data_.size() < 1) return false;
    *v = static_cast<uint8_t>(data_[0]);
    data_.remove_prefix(1);
    return true;
  }
  bool U32(uint32_t* v) {
    if (data_.size() < 4) return false;
    *v = DecodeFixed32BE(data_.data());
    data_.remove_prefix(4);
    return true;
  }
  bool I32(int32_t* v) {
    uint32_t u;
    if (!U32(&u)) return false;
    *v = static_cast<int32_t>(u);
    return true;
  }
  bool U64(uint64_t* v) {
    if (data_.size() < 8) return false;
    *v = DecodeFixed64BE(data_.data());
    data_.remove_prefix(8);
    return true;
  }
  bool Str(std::string* s) {
    uint32_t n;
    if (!U32(&n) || data_.size() < n) return false;
    s->assign(data_.data(), n);
    data_.remove_prefix(n);
    return true;
  }
  bool Map(std::map<std::string, std::string>* m) {
    uint32_t n;
    if (!U32(&n)) return false;
    m->clear();
    for (uint32_t i = 0; i < n; ++i) {
      std::string k, v;
      if (!Str(&k) || !Str(&v)) return false;
      (*m)[std::move(k)] = std::move(v);
    }
    return true;
  }
  bool empty() const { return data_.empty(); }

 private:
  std::string_view data_;
};

enum FamilyFlag : uint8_t {
  kCacheBloomsOnWrite = 1,
  kCacheDataOnWrite = 2,
  kCacheIndexesOnWrite = 4,
  kCompressTags = 8,
  kEvictBlocksOnClose = 16,
};

void EncodeFamilyV2Tail(const FamilyDescriptor& f, std::string* out) {
  PutFixed32BE(out, static_cast<uint32_t>(f.block_size));
  PutLengthPrefixed(out, f.data_block_encoding);
  PutFixed32BE(out, static_cast<uint32_t>(f.scope));
  PutFixed32BE(out, static_cast<uint32_t>(f.dfs_replication));
  uint8_t flags = 0;
  if (f.cache_blooms_on_write) flags |= kCacheBloomsOnWrite;
  if (f.cache_data_on_write) flags |= kCacheDataOnWrite;
  if (f.cache_indexes_on_write) flags |= kCacheIndexesOnWrite;
  if (f.compress_tags) flags |= kCompressTags;
  if (f.evict_blocks_on_close) flags |= kEvictBlocksOnClose;
  out->push_back(static_cast<char>(flags));
  PutMap(out, f.values);
  PutMap(out, f.configuration);
}

bool DecodeFamilyV2Tail(Reader* r, FamilyDescriptor* f) {
  uint8_t flags;
  if (!r->I32(&f->block_size) || !r->Str(&f->data_block_encoding) || !r->I32(&f->scope) ||
      !r->I32(&f->dfs_replication) || !r->U8(&flags) || !r->Map(&f->values) ||
      !r->Map(&f->configuration)) {
    return false;
  }
  f->cache_blooms_on_write = (flags & kCacheBloomsOnWrite) != 0;
  f->cache_data_on_write = (flags & kCacheDataOnWrite) != 0;
  f->cache_indexes_on_write = (flags & kCacheIndexesOnWrite) != 0;
  f->compress_tags = (flags & kCompressTags) != 0;
  f->evict_blocks_on_close = (flags & kEvictBlocksOnClose) != 0;
  return true;
}

}  // namespace

std::string EncodeTableDescriptor(const TableDescriptor& t) {
  std::string out;
  out.push_back(static_cast<char>(kTableRecordV2));
  PutFixed64BE(&out, t.id);
  out.push_back(t.enabled ? 1 : 0);
  PutFixed64BE(&out, static_cast<uint64_t>(t.created_ms));
  PutLengthPrefixed(&out, t.name.ns);
  PutLengthPrefixed(&out, t.name.qualifier);
  PutFixed32BE(&out, static_cast<uint32_t>(t.families.size()));
  for (const auto& f : t.families) {
    PutLengthPrefixed(&out, f.name);
    PutFixed32BE(&out, static_cast<uint32_t>(f.max_versions));
    PutFixed32BE(&out, static_cast<uint32_t>(f.min_versions));
    PutFixed32BE(&out, static_cast<uint32_t>(f.ttl_seconds));
    out.push_back(static_cast<char>(f.keep_deleted_cells));
    out.push_back(f.in_memory ? 1 : 0);
    out.push_back(f.block_cache_enabled ? 1 : 0);
    PutLengthPrefixed(&out, f.compression);
    PutLengthPrefixed(&out, f.bloom_filter);
    EncodeFamilyV2Tail(f, &out);
  }
  PutFixed32BE(&out, static_cast<uint32_t>(t.split_keys.size()));
  for (const auto& key : t.split_keys) PutLengthPrefixed(&out, key);
  PutMap(&out, t.values);
  out.push_back(static_cast<char>(t.durability));
  return out;
}

Status DecodeTableDescriptor(std::string_view data, TableDescriptor* t) {
  Reader r(data);
  uint8_t version, enabled;
  uint64_t created;
  uint32_t count;
  if (!r.U8(&version) || (version != kTableRecordV1 && version != kTableRecordV2)) {
    return Status::Corruption("unknown table record version");
  }
  if (!r.U64(&t->id) || !r.U8(&enabled) || !r.U64(&created) || !r.Str(&t->name.ns) ||
      !r.Str(&t->name.qualifier) || !r.U32(&count)) {
    return Status::Corruption("truncated table record");
  }
  t->enabled = enabled != 0;
  t->created_ms = static_cast<int64_t>(created);
  t->families.clear();
  for (uint32_t i = 0; i < count; ++i) {
    FamilyDescriptor f;
    uint8_t kdc, in_memory, block_cache;
    if (!r.Str(&f.name) || !r.I32(&f.max_versions) || !r.I32(&f.min_versions) ||
        !r.I32(&f.ttl_seconds) || !r.U8(&kdc) || !r.U8(&in_memory) || !r.U8(&block_cache) ||
        !r.Str(&f.compression) || !r.Str(&f.bloom_filter) || kdc > 2 ||
        (version >= kTableRecordV2 && !DecodeFamilyV2Tail(&r, &f))) {
      return Status::Corruption("truncated family record in table " + t->name.ToString());
    }
    f.keep_deleted_cells = static_cast<KeepDeletedCells>(kdc);
    f.in_memory = in_memory != 0;
    f.block_cache_enabled = block_cache != 0;
    t->families.push_back(std::move(f));
  }
  t->split_keys.clear();
  t->values.clear();
  t->durability = Durability::kUseDefault;
  if (version >= kTableRecordV2) {
    uint32_t splits;
    uint8_t durability;
    if (!r.U32(&splits)) return Status::Corruption("truncated table record");
    t->split_keys.resize(splits);
    for (auto& key : t->split_keys) {
      if (!r.Str(&key)) return Status::Corruption("truncated split keys");
    }
    if (!r.Map(&t->values) || !r.U8(&durability) ||
        durability > static_cast<uint8_t>(Durability::kFsyncWal)) {
      return Status::Corruption("truncated table record");
    }
    t->durability = static_cast<Durability>(durability);
  }
  return Status::OK();
}

std::string EncodeNamespaceDescriptor(const NamespaceDescriptor& ns) {
  std::string v(1, static_cast<char>(kNamespaceRecordV2));
  PutFixed64BE(&v, static_cast<uint64_t>(ns.created_ms));
  PutMap(&v, ns.configuration);
  return v;
}

Status DecodeNamespaceDescriptor(std::string_view data, NamespaceDescriptor* out) {
  Reader r(data);
  uint8_t version;
  uint64_t created;
  if (!r.U8(&version) || (version != kNamespaceRecordV1 && version != kNamespaceRecordV2) ||
      !r.U64(&created)) {
    return Status::Corruption("bad namespace record");
  }
  out->created_ms = static_cast<int64_t>(created);
  out->configuration.clear();
  if (version >= kNamespaceRecordV2 && !r.Map(&out->configuration)) {
    return Status::Corruption("bad namespace record");
  }
  return Status::OK();
}

}  // namespace hbemu::storage
