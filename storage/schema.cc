#include "storage/schema.h"

#include <algorithm>
#include <cctype>

#include "storage/coding.h"

namespace hbemu::storage {
namespace {

constexpr uint8_t kTableRecordVersion = 1;

bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

std::string IllegalCharMessage(std::string_view kind, std::string_view name, size_t pos,
                               std::string_view allowed) {
  const unsigned char c = static_cast<unsigned char>(name[pos]);
  return "Illegal character code:" + std::to_string(c) + ", <" + std::string(1, name[pos]) +
         "> at " + std::to_string(pos) + ". " + std::string(kind) +
         " can only contain 'alphanumeric characters': i.e. " + std::string(allowed) + ": " +
         std::string(name);
}

Status ValidateQualifier(std::string_view q) {
  if (q.empty()) return Status::InvalidArgument("Table qualifier must not be empty");
  if (q == ".META." || q == "-ROOT-") {
    return Status::InvalidArgument(std::string(q) + " is a reserved table name");
  }
  if (q[0] == '.' || q[0] == '-') {
    return Status::InvalidArgument("Illegal first character <" + std::string(1, q[0]) +
                                   "> at 0. User-space table qualifiers can only start with "
                                   "'alphanumeric characters' from any language: " +
                                   std::string(q));
  }
  for (size_t i = 0; i < q.size(); ++i) {
    const char c = q[i];
    if (IsAlnum(c) || c == '_' || c == '-' || c == '.') continue;
    return Status::InvalidArgument(
        IllegalCharMessage("User-space table qualifiers", q, i, "[a-zA-Z_0-9-.]"));
  }
  return Status::OK();
}

void PutLengthPrefixed(std::string* dst, std::string_view s) {
  PutFixed32BE(dst, static_cast<uint32_t>(s.size()));
  dst->append(s.data(), s.size());
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

 private:
  std::string_view data_;
};

}  // namespace

std::string TableName::ToString() const {
  return ns == "default" ? qualifier : ns + ":" + qualifier;
}

Status ValidateNamespaceName(std::string_view ns) {
  if (ns.empty()) return Status::InvalidArgument("Namespace name must not be empty");
  for (size_t i = 0; i < ns.size(); ++i) {
    if (IsAlnum(ns[i]) || ns[i] == '_') continue;
    return Status::InvalidArgument(IllegalCharMessage("Namespace names", ns, i, "[a-zA-Z_0-9]"));
  }
  return Status::OK();
}

Status ParseTableName(std::string_view full_name, TableName* out) {
  const size_t colon = full_name.find(':');
  std::string_view ns = "default";
  std::string_view qualifier = full_name;
  if (colon != std::string_view::npos) {
    ns = full_name.substr(0, colon);
    qualifier = full_name.substr(colon + 1);
    HBEMU_RETURN_IF_ERROR(ValidateNamespaceName(ns));
  }
  HBEMU_RETURN_IF_ERROR(ValidateQualifier(qualifier));
  out->ns = std::string(ns);
  out->qualifier = std::string(qualifier);
  return Status::OK();
}

Status ValidateFamilyName(std::string_view family) {
  if (family.empty()) return Status::InvalidArgument("Column Family name can not be empty");
  if (family[0] == '.') {
    return Status::InvalidArgument("Column Family names cannot start with a period: " +
                                   std::string(family));
  }
  if (family.size() > 127) {
    return Status::InvalidArgument("Column Family name is longer than 127 bytes");
  }
  for (char c : family) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == ':' || c == '\\' || c == '/' || u < 0x20 || u == 0x7f) {
      return Status::InvalidArgument("Column Family names cannot contain control characters, "
                                     "colons, slashes or backslashes: " + std::string(family));
    }
  }
  if (family == "recovered.edits") {
    return Status::InvalidArgument("Column Family name cannot be: recovered.edits");
  }
  return Status::OK();
}

Status ValidateFamily(const FamilyDescriptor& f) {
  HBEMU_RETURN_IF_ERROR(ValidateFamilyName(f.name));
  if (f.max_versions <= 0) {
    return Status::InvalidArgument("Maximum versions must be positive");
  }
  if (f.min_versions < 0 || f.min_versions > f.max_versions) {
    return Status::InvalidArgument("Unable to set MinVersion to " + std::to_string(f.min_versions) +
                                   " and set MaxVersion to " + std::to_string(f.max_versions) +
                                   " as minVersion should be <= maxVersion");
  }
  return Status::OK();
}

const FamilyDescriptor* TableDescriptor::FindFamily(std::string_view family) const {
  for (const auto& f : families) {
    if (f.name == family) return &f;
  }
  return nullptr;
}

std::string EncodeTableDescriptor(const TableDescriptor& t) {
  std::string out;
  out.push_back(static_cast<char>(kTableRecordVersion));
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
  }
  return out;
}

Status DecodeTableDescriptor(std::string_view data, TableDescriptor* t) {
  Reader r(data);
  uint8_t version, enabled;
  uint64_t created;
  uint32_t count;
  if (!r.U8(&version) || version != kTableRecordVersion) {
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
    uint32_t maxv, minv, ttl;
    uint8_t kdc, in_memory, block_cache;
    if (!r.Str(&f.name) || !r.U32(&maxv) || !r.U32(&minv) || !r.U32(&ttl) || !r.U8(&kdc) ||
        !r.U8(&in_memory) || !r.U8(&block_cache) || !r.Str(&f.compression) ||
        !r.Str(&f.bloom_filter) || kdc > 2) {
      return Status::Corruption("truncated family record in table " + t->name.ToString());
    }
    f.max_versions = static_cast<int32_t>(maxv);
    f.min_versions = static_cast<int32_t>(minv);
    f.ttl_seconds = static_cast<int32_t>(ttl);
    f.keep_deleted_cells = static_cast<KeepDeletedCells>(kdc);
    f.in_memory = in_memory != 0;
    f.block_cache_enabled = block_cache != 0;
    t->families.push_back(std::move(f));
  }
  return Status::OK();
}

}  // namespace hbemu::storage
