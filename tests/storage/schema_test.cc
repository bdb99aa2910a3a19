// Table-name parsing, family and split-key validation (schema.h).

#include "storage/schema.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::Escape;

using namespace std::string_literals;

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

TEST(SchemaTest, SplitKeysAreSortedAndMustBeNonEmptyAndUnique) {
  std::vector<std::string> keys = {"m", "b", "x"};
  ASSERT_OK(NormalizeSplitKeys(&keys));
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "m", "x"}));
  std::vector<std::string> empty_key = {"a", ""};
  EXPECT_CODE(kInvalidArgument, NormalizeSplitKeys(&empty_key));
  std::vector<std::string> duplicate = {"a", "b", "a"};
  EXPECT_CODE(kInvalidArgument, NormalizeSplitKeys(&duplicate));
}

}  // namespace
}  // namespace hbemu::storage
