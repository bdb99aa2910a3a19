#pragma once

#include <set>
#include <string>
#include <vector>

#include "THBaseService_types.h"
#include "shell/value.h"

namespace hbemu::shell {

// "ns:t" or "t" as a Thrift2 table name.
hbemu::thrift2::TTableName TableNameOf(const std::string& table);

// A descriptor read back to be written again (alter, clone_table_schema) without the
// durability field when it is the default: Thrift2 always reports it, and sending
// USE_DEFAULT back makes HBase's gateway (and this server) keep a DURABILITY attribute the
// Java client's copy never has.
hbemu::thrift2::TTableDescriptor ForWriting(hbemu::thrift2::TTableDescriptor desc);

// Applies a family spec hash ({NAME => 'f', VERSIONS => 3, TTL => 60, ...}) onto `family`.
// Keys HBase's shell knows but a Thrift client cannot set are reported in *ignored.
void ApplyFamilySpec(const Value& spec, hbemu::thrift2::TColumnFamilyDescriptor* family,
                     std::vector<std::string>* ignored);

// Family value keys that are settings of HBase's own (ColumnFamilyDescriptorBuilder's); describe
// lists every other key under METADATA.
const std::set<std::string>& FamilySettingKeys();

// A family as HBase 2.6's describe prints it: {NAME => 'f', VERSIONS => '1', ...}. Unset
// fields show HBase's defaults.
std::string DescribeFamily(const hbemu::thrift2::TColumnFamilyDescriptor& family);

// Split points for NUMREGIONS with SPLITALGO HexStringSplit or UniformSplit.
std::vector<std::string> ComputeSplits(const std::string& algorithm, int64_t regions);

}  // namespace hbemu::shell
