// Table-name parsing, family validation and the versioned catalog record encoding (schema.h).

#include "storage/schema.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::Escape;

using namespace std::string_literals;

TableDescriptor SampleTable() {
  TableDescriptor t;
  t.id = 0x0102030405060708ULL;
  t.name = TableName{"ns1", "tab.le-1"};
  t.enabled = false;
  t.created_ms = 1'700'000'000'123;
  FamilyDescriptor a;
  a.name = "a";
  a.max_versions = 7;
  a.min_versions = 2;
  a.ttl_seconds = 86400;
  a.keep_deleted_cells = KeepDeletedCells::kTtl;
  a.in_memory = true;
  a.block_cache_enabled = false;
  a.compression = "SNAPPY";
  a.bloom_filter = "ROWCOL";
  FamilyDescriptor b;
  b.name = "b\xff\x00"s;  // family names are bytes; the record is length-prefixed
  t.families = {a, b};
  return t;
}

TEST(SchemaTest, TableDescriptorRoundTripsEveryField) {
  const TableDescriptor in = SampleTable();
  TableDescriptor out;
  ASSERT_OK(DecodeTableDescriptor(EncodeTableDescriptor(in), &out));
  EXPECT_EQ(out.id, in.id);
  EXPECT_EQ(out.name.ns, "ns1");
  EXPECT_EQ(out.name.qualifier, "tab.le-1");
  EXPECT_FALSE(out.enabled);
  EXPECT_EQ(out.created_ms, in.created_ms);
  ASSERT_EQ(out.families.size(), 2u);
  const FamilyDescriptor& a = out.families[0];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.max_versions, 7);
  EXPECT_EQ(a.min_versions, 2);
  EXPECT_EQ(a.ttl_seconds, 86400);
  EXPECT_EQ(a.keep_deleted_cells, KeepDeletedCells::kTtl);
  EXPECT_TRUE(a.in_memory);
  EXPECT_FALSE(a.block_cache_enabled);
  EXPECT_EQ(a.compression, "SNAPPY");
  EXPECT_EQ(a.bloom_filter, "ROWCOL");
  const FamilyDescriptor& b = out.families[1];
  EXPECT_EQ(b.name, "b\xff\x00"s);
  EXPECT_EQ(b.max_versions, 1);
  EXPECT_EQ(b.ttl_seconds, kForeverTtl);
  EXPECT_EQ(b.keep_deleted_cells, KeepDeletedCells::kFalse);
  EXPECT_TRUE(b.block_cache_enabled);
  EXPECT_EQ(b.compression, "NONE");
  EXPECT_EQ(b.bloom_filter, "ROW");
}

TEST(SchemaTest, DecodeReplacesFamiliesOfTheTarget) {
  TableDescriptor out = SampleTable();
  TableDescriptor in = SampleTable();
  in.families.resize(1);
  ASSERT_OK(DecodeTableDescriptor(EncodeTableDescriptor(in), &out));
  EXPECT_EQ(out.families.size(), 1u);
}

TEST(SchemaTest, TableRecordStartsWithRecordVersionAndFixedHeader) {
  // Golden header: version 1, id (u64 BE), enabled (u8), created (u64 BE), then
  // length-prefixed namespace and name. On disk: never edit to make a change pass.
  const std::string rec = EncodeTableDescriptor(SampleTable());
  EXPECT_EQ(rec.substr(0, 1 + 8 + 1 + 8 + 4 + 3),
            "\x01"
            "\x01\x02\x03\x04\x05\x06\x07\x08"
            "\x00"
            "\x00\x00\x01\x8b\xcf\xe5\x68\x7b"
            "\x00\x00\x00\x03"
            "ns1"s);
}

TEST(SchemaTest, DecodeRejectsUnknownVersionAndEveryTruncation) {
  const std::string rec = EncodeTableDescriptor(SampleTable());
  TableDescriptor out;
  std::string bad_version = rec;
  bad_version[0] = '\x02';
  EXPECT_CODE(kCorruption, DecodeTableDescriptor(bad_version, &out));
  for (size_t n = 0; n < rec.size(); ++n) {
    // The family count says how many families follow, so every cut leaves a field incomplete.
    EXPECT_CODE(kCorruption, DecodeTableDescriptor(rec.substr(0, n), &out)) << "length " << n;
  }
}

TEST(SchemaTest, DecodeRejectsUnknownKeepDeletedCellsValue) {
  TableDescriptor t;
  t.id = 1;
  t.name = TableName{"default", "t"};
  FamilyDescriptor f;
  f.name = "f";
  t.families = {f};
  std::string rec = EncodeTableDescriptor(t);
  // From the end: bloom (4 + "ROW"), compression (4 + "NONE"), block cache, in memory, then
  // the keep_deleted_cells byte.
  const size_t kdc = rec.size() - 7 - 8 - 1 - 1 - 1;
  ASSERT_EQ(rec[kdc], '\x00');
  rec[kdc] = '\x03';
  TableDescriptor out;
  EXPECT_CODE(kCorruption, DecodeTableDescriptor(rec, &out));
}

TEST(SchemaTest, ParseTableNameSplitsNamespace) {
  TableName n;
  ASSERT_OK(ParseTableName("t", &n));
  EXPECT_EQ(n.ns, "default");
  EXPECT_EQ(n.qualifier, "t");
  EXPECT_EQ(n.ToString(), "t");
  ASSERT_OK(ParseTableName("default:t", &n));
  EXPECT_EQ(n.ns, "default");
  EXPECT_EQ(n.ToString(), "t");
  ASSERT_OK(ParseTableName("ns_1:a-b.c_1", &n));
  EXPECT_EQ(n.ns, "ns_1");
  EXPECT_EQ(n.qualifier, "a-b.c_1");
  EXPECT_EQ(n.ToString(), "ns_1:a-b.c_1");
}

TEST(SchemaTest, ParseTableNameRejectsIllegalNames) {
  // G88 and TableName.isLegalTableQualifierName / isLegalNamespaceName.
  for (const std::string& bad : {""s, "-a"s, ".a"s, "a b"s, "a$b"s, "ns-1:t"s, ":t"s, "ns:"s,
                                 "ns:a:b"s, ".META."s, "-ROOT-"s, "a\x00"s}) {
    TableName n;
    EXPECT_CODE(kInvalidArgument, ParseTableName(bad, &n)) << Escape(bad);
  }
}

TEST(SchemaTest, NamespaceNamesAreWordCharacters) {
  EXPECT_OK(ValidateNamespaceName("ns_1"));
  EXPECT_OK(ValidateNamespaceName("_"));
  EXPECT_CODE(kInvalidArgument, ValidateNamespaceName(""));
  EXPECT_CODE(kInvalidArgument, ValidateNamespaceName("a.b"));
  EXPECT_CODE(kInvalidArgument, ValidateNamespaceName("a-b"));
}

TEST(SchemaTest, FamilyValidationFollowsColumnFamilyDescriptorBuilder) {
  EXPECT_OK(ValidateFamilyName("f"));
  EXPECT_OK(ValidateFamilyName("-f.g_h"));
  EXPECT_OK(ValidateFamilyName(std::string(127, 'x')));
  for (const std::string& bad : {""s, ".f"s, "a:b"s, "a/b"s, "a\\b"s, "\x01"s, "a\x1f"s,
                                 "a\x7f"s, "recovered.edits"s, std::string(128, 'x')}) {
    EXPECT_CODE(kInvalidArgument, ValidateFamilyName(bad)) << Escape(bad);
  }
  FamilyDescriptor f;
  f.name = "f";
  EXPECT_OK(ValidateFamily(f));
  f.max_versions = 0;
  EXPECT_CODE(kInvalidArgument, ValidateFamily(f));
  f.max_versions = 3;
  f.min_versions = 3;
  EXPECT_OK(ValidateFamily(f));
  f.min_versions = 4;
  EXPECT_CODE(kInvalidArgument, ValidateFamily(f));
}

}  // namespace
}  // namespace hbemu::storage
