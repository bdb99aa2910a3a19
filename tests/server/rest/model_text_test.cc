#include "server/rest/model_text.h"

#include <gtest/gtest.h>

#include "server/rest/java_format.h"
#include "tests/server/rest/sample_models.h"

namespace hbemu::server::rest {
namespace {

// Each expected text is the body HBase 2.6.1's gateway answered with Accept: text/plain.

TEST(ModelTextTest, VersionMatchesTheGateway) {
  EXPECT_EQ(EncodeVersionText(sample::Version()),
            "rest 0.0.3 [JVM: Debian 17.0.15-17.0.15+6-Debian-1deb12u1] [OS: Linux 6.18.44-fc-v857 amd64]"
            " [Server: jetty/9.4.56.v20240826] [Jersey: ] [Version: 2.6.1-hadoop3]"
            " [Revision: 7ed50b4dd742269a78875fb32112215f831284ff]\n");
  EXPECT_EQ(EncodeStorageClusterVersionText({"2.6.1-hadoop3"}), "2.6.1-hadoop3");
}

TEST(ModelTextTest, ListsHaveOneNamePerLine) {
  EXPECT_EQ(EncodeTableListText(sample::Tables()), "rd1\nrmT\nsb_probe1\n");
  EXPECT_EQ(EncodeNamespacesText(sample::Namespaces()), "default\nhbase\n");
}

TEST(ModelTextTest, NamespaceInstanceMatchesTheGateway) {
  EXPECT_EQ(EncodeNamespacesInstanceText(sample::NamespaceRmns()), "{NAME => 'rmns', a => '1', b => '2'}");
  EXPECT_EQ(EncodeNamespacesInstanceText({"default", {}}), "{NAME => 'default'}");
  // Nothing is escaped.
  EXPECT_EQ(EncodeNamespacesInstanceText({"rmesc", {{"k", "<&\"\n\xc3\xa9\x01/>'"}}}),
            "{NAME => 'rmesc', k => '<&\"\n\xc3\xa9\x01/>''}");
  EXPECT_EQ(EncodeTableListText({}), "");
}

TEST(ModelTextTest, SchemaMatchesTheGateway) {
  auto family = [](const char* name, const char* versions) {
    return std::string("{ NAME => '") + name + "', INDEX_BLOCK_ENCODING => 'NONE', VERSIONS => '" +
           versions +
           "', KEEP_DELETED_CELLS => 'FALSE', DATA_BLOCK_ENCODING => 'NONE', TTL => '2147483647', "
           "MIN_VERSIONS => '0', REPLICATION_SCOPE => '0', BLOOMFILTER => 'ROW', IN_MEMORY => 'false', "
           "COMPRESSION => 'NONE', BLOCKCACHE => 'true', BLOCKSIZE => '65536' }";
  };
  EXPECT_EQ(EncodeTableSchemaText(sample::SchemaRmT()),
            "{ NAME=> 'rmT', IS_META => 'false', hbase.store.file-tracker.impl => 'DEFAULT', COLUMNS => [ " +
                family("cf", "1") + ", " + family("f2", "3") + " ] }");
}

TEST(ModelTextTest, RegionsMatchTheGateway) {
  EXPECT_EQ(EncodeTableInfoText(sample::RegionsRmT()),
            "rmT,,1795958646398.4dfb5e3e146795656024c15acc63ac01. [\n  id=1795958646398\n  startKey=''\n"
            "  endKey=''\n  location='127.0.0.1:16120'\n]\n\n");
}

// The gateway's layout (its "storefiless" included); the figures are the sample's.
TEST(ModelTextTest, StatusMatchesTheGatewaysLayout) {
  EXPECT_EQ(EncodeStorageClusterStatusText(sample::Status()),
            "1 live servers, 0 dead servers, 4.0000 average load\n\n"
            "1 live servers\n"
            "    127.0.0.1:16120 1795958465016\n"
            "        requests=82, regions=1\n"
            "        heapSizeMB=100\n"
            "        maxHeapSizeMB=2048\n\n"
            "        hbase:meta,,1\n"
            "            stores=3\n"
            "            storefiless=0\n"
            "            storefileSizeMB=0\n"
            "            memstoreSizeMB=1\n"
            "            storefileIndexSizeKB=0\n"
            "            readRequestsCount=22\n"
            "            writeRequestsCount=24\n"
            "            rootIndexSizeKB=0\n"
            "            totalStaticIndexSizeKB=0\n"
            "            totalStaticBloomSizeKB=0\n"
            "            totalCompactingKVs=0\n"
            "            currentCompactedKVs=0\n\n");
}

TEST(JavaFormatTest, DoublesPrintAsJavaDoes) {
  EXPECT_EQ(JavaDouble(4.0), "4.0");
  EXPECT_EQ(JavaDouble(0.25), "0.25");
  EXPECT_EQ(JavaDouble(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(JavaDouble(0.0), "0.0");
  EXPECT_EQ(JavaDouble(1e7), "1.0E7");
  EXPECT_EQ(JavaDouble(12345678.5), "1.23456785E7");
  EXPECT_EQ(JavaDouble(0.00015), "1.5E-4");
  EXPECT_EQ(JavaDouble(-2.5), "-2.5");
  EXPECT_EQ(JavaDouble(100.0), "100.0");
}

}  // namespace
}  // namespace hbemu::server::rest
