// The versioned catalog records: table and namespace descriptors (catalog_records.h).

#include "storage/catalog_records.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

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
  a.block_size = 8192;
  a.data_block_encoding = "FAST_DIFF";
  a.scope = 1;
  a.dfs_replication = 3;
  a.cache_data_on_write = true;
  a.compress_tags = false;
  a.values = {{"X", "Y\x00"s}};
  a.configuration = {{"hbase.k", "v"}};
  b.name = "b\xff\x00"s;  // family names are bytes; the record is length-prefixed
  t.families = {a, b};
  t.split_keys = {"b", "m\x00"s};
  t.values = {{"OWNER", "me"}};
  t.durability = Durability::kAsyncWal;
  return t;
}

TEST(CatalogRecordsTest, TableDescriptorRoundTripsEveryField) {
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
  EXPECT_EQ(a.block_size, 8192);
  EXPECT_EQ(a.data_block_encoding, "FAST_DIFF");
  EXPECT_EQ(a.scope, 1);
  EXPECT_EQ(a.dfs_replication, 3);
  EXPECT_TRUE(a.cache_data_on_write);
  EXPECT_FALSE(a.cache_blooms_on_write);
  EXPECT_FALSE(a.compress_tags);
  EXPECT_EQ(a.values, in.families[0].values);
  EXPECT_EQ(a.configuration, in.families[0].configuration);
  EXPECT_EQ(out.split_keys, in.split_keys);
  EXPECT_EQ(out.values, in.values);
  EXPECT_EQ(out.durability, Durability::kAsyncWal);
  const FamilyDescriptor& b = out.families[1];
  EXPECT_EQ(b.name, "b\xff\x00"s);
  EXPECT_EQ(b.max_versions, 1);
  EXPECT_EQ(b.ttl_seconds, kForeverTtl);
  EXPECT_EQ(b.keep_deleted_cells, KeepDeletedCells::kFalse);
  EXPECT_TRUE(b.block_cache_enabled);
  EXPECT_EQ(b.compression, "NONE");
  EXPECT_EQ(b.bloom_filter, "ROW");
}

TEST(CatalogRecordsTest, DecodeReplacesFamiliesOfTheTarget) {
  TableDescriptor out = SampleTable();
  TableDescriptor in = SampleTable();
  in.families.resize(1);
  ASSERT_OK(DecodeTableDescriptor(EncodeTableDescriptor(in), &out));
  EXPECT_EQ(out.families.size(), 1u);
}

TEST(CatalogRecordsTest, TableRecordStartsWithRecordVersionAndFixedHeader) {
  // Golden header: version 2, id (u64 BE), enabled (u8), created (u64 BE), then
  // length-prefixed namespace and name. On disk: never edit to make a change pass.
  const std::string rec = EncodeTableDescriptor(SampleTable());
  EXPECT_EQ(rec.substr(0, 1 + 8 + 1 + 8 + 4 + 3),
            "\x02"
            "\x01\x02\x03\x04\x05\x06\x07\x08"
            "\x00"
            "\x00\x00\x01\x8b\xcf\xe5\x68\x7b"
            "\x00\x00\x00\x03"
            "ns1"s);
}

TEST(CatalogRecordsTest, DecodeRejectsUnknownVersionAndEveryTruncation) {
  const std::string rec = EncodeTableDescriptor(SampleTable());
  TableDescriptor out;
  std::string bad_version = rec;
  bad_version[0] = '\x03';
  EXPECT_CODE(kCorruption, DecodeTableDescriptor(bad_version, &out));
  for (size_t n = 0; n < rec.size(); ++n) {
    // Counts say how many entries follow, so every cut leaves a field incomplete.
    EXPECT_CODE(kCorruption, DecodeTableDescriptor(rec.substr(0, n), &out)) << "length " << n;
  }
}

TEST(CatalogRecordsTest, DecodeRejectsUnknownKeepDeletedCellsValue) {
  TableDescriptor t;
  t.id = 1;
  t.name = TableName{"default", "t"};
  FamilyDescriptor f;
  f.name = "f";
  t.families = {f};
  std::string rec = EncodeTableDescriptor(t);
  // Header (1 + 8 + 1 + 8), "default", "t", family count, "f", three i32 settings.
  const size_t kdc = 18 + (4 + 7) + (4 + 1) + 4 + (4 + 1) + 12;
  ASSERT_EQ(rec[kdc], '\x00');
  rec[kdc] = '\x03';
  TableDescriptor out;
  EXPECT_CODE(kCorruption, DecodeTableDescriptor(rec, &out));
}

TEST(CatalogRecordsTest, VersionOneRecordsOfEarlierReleasesStillDecode) {
  // A version 1 record as the first release wrote it: on disk, never edit.
  const std::string v1 =
      "\x01"                                  // version
      "\x00\x00\x00\x00\x00\x00\x00\x05"  // id
      "\x01"                                  // enabled
      "\x00\x00\x01\x8b\xcf\xe5\x68\x7b"  // created
      "\x00\x00\x00\x07" "default"
      "\x00\x00\x00\x01" "t"
      "\x00\x00\x00\x01"                      // one family
      "\x00\x00\x00\x01" "f"
      "\x00\x00\x00\x03" "\x00\x00\x00\x00" "\x7f\xff\xff\xff"
      "\x00" "\x00" "\x01"
      "\x00\x00\x00\x04" "NONE"
      "\x00\x00\x00\x03" "ROW"s;
  TableDescriptor out;
  ASSERT_OK(DecodeTableDescriptor(v1, &out));
  EXPECT_EQ(out.id, 5u);
  EXPECT_EQ(out.name.qualifier, "t");
  ASSERT_EQ(out.families.size(), 1u);
  EXPECT_EQ(out.families[0].max_versions, 3);
  EXPECT_EQ(out.families[0].block_size, 64 * 1024);  // fields v1 lacks take HBase's defaults
  EXPECT_TRUE(out.families[0].compress_tags);
  EXPECT_TRUE(out.split_keys.empty());
  EXPECT_EQ(out.durability, Durability::kUseDefault);
}

TEST(CatalogRecordsTest, NamespaceRecordsKeepConfigurationAndReadVersionOne) {
  NamespaceDescriptor in;
  in.created_ms = 42;
  in.configuration = {{"hbase.namespace.quota.maxtables", "5"}};
  NamespaceDescriptor out;
  ASSERT_OK(DecodeNamespaceDescriptor(EncodeNamespaceDescriptor(in), &out));
  EXPECT_EQ(out.created_ms, 42);
  EXPECT_EQ(out.configuration, in.configuration);
  ASSERT_OK(DecodeNamespaceDescriptor("\x01\x00\x00\x00\x00\x00\x00\x00\x07"s, &out));
  EXPECT_EQ(out.created_ms, 7);
  EXPECT_TRUE(out.configuration.empty());
  EXPECT_CODE(kCorruption, DecodeNamespaceDescriptor("\x09"s, &out));
}

}  // namespace
}  // namespace hbemu::storage
