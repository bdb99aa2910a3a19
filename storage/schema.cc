#include "storage/schema.h"

#include <algorithm>

#include "storage/name_chars.h"

namespace hbemu::storage {
namespace {

// HBase 2.6.1's TableName texts (isLegalTableQualifierName / isLegalNamespaceName). `pos`
// counts UTF-16 units, as Java's String does.
std::string IllegalCharMessage(std::string_view name, const char* kind, uint16_t c, size_t pos) {
  return "Illegal character code:" + std::to_string(c) + ", <" + JavaCharText(c) + "> at " +
         std::to_string(pos) + ". " + kind +
         " qualifiers may only contain 'alphanumeric characters' and digits: " + std::string(name);
}

}  // namespace

Status ValidateQualifierName(std::string_view q, bool snapshot) {
  const char* kind = snapshot ? "Snapshot" : "User-space table";
  // Java's operator precedence makes the snapshot text "Snapshot must not be empty".
  if (q.empty()) {
    return Status::InvalidArgument(snapshot ? "Snapshot must not be empty"
                                            : "Table qualifier must not be empty");
  }
  if (!snapshot && (q == ".META." || q == "-ROOT-")) {
    return Status::InvalidArgument(std::string(q) + " is a reserved table name");
  }
  if (q[0] == '.' || q[0] == '-') {
    // Java prints the byte's number here ("<46>"), not the character.
    return Status::InvalidArgument("Illegal first character <" + std::to_string(q[0]) +
                                   "> at 0. " + kind +
                                   " qualifiers can only start with 'alphanumeric characters' "
                                   "from any language: " + std::string(q));
  }
  const std::vector<uint16_t> units = DecodeAsJavaString(q);
  for (size_t i = 0; i < units.size(); ++i) {
    const uint16_t c = units[i];
    if (IsJavaLetterOrDigit(c) || c == '_' || c == '-' || c == '.') continue;
    return Status::InvalidArgument(IllegalCharMessage(q, kind, c, i));
  }
  return Status::OK();
}


std::string TableName::ToString() const {
  return ns == "default" ? qualifier : ns + ":" + qualifier;
}

Status ValidateNamespaceName(std::string_view ns) {
  if (ns.empty()) return Status::InvalidArgument("Namespace name must not be empty");
  const std::vector<uint16_t> units = DecodeAsJavaString(ns);
  for (size_t i = 0; i < units.size(); ++i) {
    if (IsJavaLetterOrDigit(units[i]) || units[i] == '_') continue;
    return Status::InvalidArgument("Illegal character <" + JavaCharText(units[i]) + "> at " +
                                   std::to_string(i) +
                                   ". Namespaces may only contain 'alphanumeric characters' from "
                                   "any language and digits: " + std::string(ns));
  }
  return Status::OK();
}

Status ValidateNewNameLength(std::string_view what, std::string_view name) {
  if (name.size() <= kMaxNameBytes) return Status::OK();
  return Status::InvalidArgument(std::string(what) + " name is " + std::to_string(name.size()) +
                                 " bytes, longer than the " + std::to_string(kMaxNameBytes) +
                                 " bytes HBase can store as a directory name: " +
                                 std::string(name.substr(0, 64)) + "...");
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
  HBEMU_RETURN_IF_ERROR(ValidateQualifierName(qualifier, /*snapshot=*/false));
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

Status NormalizeSplitKeys(std::vector<std::string>* keys) {
  std::sort(keys->begin(), keys->end());
  for (size_t i = 0; i < keys->size(); ++i) {
    if ((*keys)[i].empty()) {
      return Status::InvalidArgument("Empty split key must not be passed in the split keys.");
    }
    if (i > 0 && (*keys)[i] == (*keys)[i - 1]) {
      return Status::InvalidArgument("All split keys must be unique, found duplicate: " +
                                     (*keys)[i] + ", " + (*keys)[i]);
    }
  }
  return Status::OK();
}

}  // namespace hbemu::storage
