#pragma once

// Thrift2 descriptors <-> the store's: column families, tables and namespaces, with the
// attribute maps HBase's master fills in (docs/thrift-api.md#thrift2-semantics).

#include <string>
#include <vector>

#include "THBaseService_types.h"
#include "storage/schema.h"
#include "storage/status.h"

namespace hbemu::server::thrift2_convert {

// TColumnFamilyDescriptor -> family. HBase applies `attributes` first (known keys such as
// VERSIONS set the setting they name) and then the typed fields.
storage::Status ToFamilyDescriptor(const thrift2::TColumnFamilyDescriptor& in,
                                   storage::FamilyDescriptor* out);
// Every typed field set, and `attributes` as HBase's descriptor values: the settings it
// always lists, the optional ones that differ from their defaults, and the client's own.
thrift2::TColumnFamilyDescriptor ToTColumnFamilyDescriptor(const storage::FamilyDescriptor& in);

// TTableDescriptor -> the families, attributes and durability of a table (no name, no splits).
storage::Status ToTableSpec(const thrift2::TTableDescriptor& in, storage::TableDescriptor* out);
thrift2::TTableDescriptor ToTTableDescriptor(const storage::TableDescriptor& table);

// `configuration` is only set when it has entries, as HBase's ThriftUtilities does.
thrift2::TNamespaceDescriptor ToTNamespaceDescriptor(const storage::NamespaceDescriptor& ns);

}  // namespace hbemu::server::thrift2_convert
