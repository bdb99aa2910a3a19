#include "storage/snapshot_records.h"


#include "storage/catalog_records.h"
#include "storage/coding.h"

namespace hbemu::storage {
namespace {

constexpr uint8_t kSnapshotRecordV1 = 1;
constexpr uint8_t kWholeStore = 1;

void PutBlob(std::string* dst, std::string_view s) {
  PutFixed32BE(dst, static_cast<uint32_t>(s.size()));
  dst->append(s.data(), s.size());
}

bool GetU64(std::string_view* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = DecodeFixed64BE(in->data());
  in->remove_prefix(8);
  return true;
}

bool GetBlob(std::string_view* in, std::string_view* blob) {
  if (in->size() < 4) return false;
  const uint32_t n = DecodeFixed32BE(in->data());
  in->remove_prefix(4);
  if (in->size() < n) return false;
  *blob = in->substr(0, n);
  in->remove_prefix(n);
  return true;
}

}  // namespace

std::string EncodeSnapshotRecord(const SnapshotRecord& record) {
  std::string out;
  out.push_back(static_cast<char>(kSnapshotRecordV1));
  out.push_back(static_cast<char>(record.whole_store ? kWholeStore : 0));
  PutFixed64BE(&out, static_cast<uint64_t>(record.created_ms));
  PutFixed64BE(&out, record.bytes);
  PutFixed64BE(&out, record.cells);
  PutFixed32BE(&out, static_cast<uint32_t>(record.tables.size()));
  for (const TableDescriptor& t : record.tables) PutBlob(&out, EncodeTableDescriptor(t));
  PutFixed32BE(&out, static_cast<uint32_t>(record.namespaces.size()));
  for (const NamespaceDescriptor& ns : record.namespaces) {
    PutBlob(&out, ns.name);
    PutBlob(&out, EncodeNamespaceDescriptor(ns));
  }
  return out;
}

Status DecodeSnapshotRecord(std::string_view in, SnapshotRecord* out) {
  const Status truncated = Status::Corruption("truncated snapshot record " + out->name);
  if (in.size() < 2 || static_cast<uint8_t>(in[0]) != kSnapshotRecordV1) {
    return Status::Corruption("unknown snapshot record version");
  }
  out->whole_store = (static_cast<uint8_t>(in[1]) & kWholeStore) != 0;
  in.remove_prefix(2);
  uint64_t created = 0;
  if (!GetU64(&in, &created) || !GetU64(&in, &out->bytes) || !GetU64(&in, &out->cells)) {
    return truncated;
  }
  out->created_ms = static_cast<int64_t>(created);
  if (in.size() < 4) return truncated;
  uint32_t count = DecodeFixed32BE(in.data());
  in.remove_prefix(4);
  out->tables.clear();
  for (uint32_t i = 0; i < count; ++i) {
    std::string_view blob;
    if (!GetBlob(&in, &blob)) return truncated;
    TableDescriptor table;
    HBEMU_RETURN_IF_ERROR(DecodeTableDescriptor(blob, &table));
    out->tables.push_back(std::move(table));
  }
  if (in.size() < 4) return truncated;
  count = DecodeFixed32BE(in.data());
  in.remove_prefix(4);
  out->namespaces.clear();
  for (uint32_t i = 0; i < count; ++i) {
    std::string_view name, blob;
    if (!GetBlob(&in, &name) || !GetBlob(&in, &blob)) return truncated;
    NamespaceDescriptor ns;
    ns.name = std::string(name);
    HBEMU_RETURN_IF_ERROR(DecodeNamespaceDescriptor(blob, &ns));
    out->namespaces.push_back(std::move(ns));
  }
  return Status::OK();
}

Status ValidateSnapshotName(std::string_view name) {
  return ValidateQualifierName(name, /*snapshot=*/true);
}

}  // namespace hbemu::storage
