#pragma once

// The values of the catalog's keys (key_format.h says where they live): table and namespace
// records. Versioned: records written by an older release still decode.

#include <string>
#include <string_view>

#include "storage/schema.h"
#include "storage/status.h"

namespace hbemu::storage {

std::string EncodeTableDescriptor(const TableDescriptor& table);
Status DecodeTableDescriptor(std::string_view data, TableDescriptor* out);

std::string EncodeNamespaceDescriptor(const NamespaceDescriptor& ns);
// The name is not in the record (it is in the key): out->name is left as it is.
Status DecodeNamespaceDescriptor(std::string_view data, NamespaceDescriptor* out);

}  // namespace hbemu::storage
