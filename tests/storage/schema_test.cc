// Table-name parsing, family and split-key validation (schema.h).

#include "storage/schema.h"

#include "storage/name_chars.h"

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

// HBase tests each Java char with Character.isLetterOrDigit: letters of any script pass (a CJK
// table in a CJK namespace was created on HBase 2.6.1); a letter outside the BMP is two
// surrogates and is refused at its first one, printed '?', positions counting UTF-16 units.
TEST(SchemaTest, LettersOfAnyScriptAreLegalAsJavaCountsThem) {
  TableName n;
  ASSERT_OK(ParseTableName("\u540d\u524d:\u8868\u683c_\u00e9\u0661", &n));
  EXPECT_EQ(n.ns, "\u540d\u524d");
  EXPECT_OK(ValidateNamespaceName("\u0416\u05d0\u0e01"));
  EXPECT_EQ(ParseTableName("\u8868\u3001", &n).message(),
            "Illegal character code:12289, <\u3001> at 1. User-space table qualifiers may only "
            "contain 'alphanumeric characters' and digits: \u8868\u3001");
  EXPECT_EQ(ValidateNamespaceName("nm_\U00020000").message(),
            "Illegal character <?> at 3. Namespaces may only contain 'alphanumeric characters' "
            "from any language and digits: nm_\U00020000");
  EXPECT_EQ(ParseTableName("\u00e9\U0001F600x", &n).message().find(
                "Illegal character code:55357, <?> at 1. "), 0u);
  // Bytes that are not UTF-8 decode to U+FFFD, which is no letter.
  EXPECT_EQ(ParseTableName("a\xff", &n).message().find(
                "Illegal character code:65533, <\ufffd> at 1. "), 0u);
  EXPECT_CODE(kInvalidArgument, ParseTableName("a\xe8\xa1", &n));  // cut short
  EXPECT_CODE(kInvalidArgument, ParseTableName("a\xc0\x80", &n));  // overlong NUL
}

TEST(SchemaTest, JavaLetterOrDigitTableMatchesItsEdges) {
  EXPECT_TRUE(IsJavaLetterOrDigit('z'));
  EXPECT_FALSE(IsJavaLetterOrDigit('_'));
  EXPECT_TRUE(IsJavaLetterOrDigit(0x00AA));   // feminine ordinal: Lo
  EXPECT_FALSE(IsJavaLetterOrDigit(0x00B2));  // superscript two: No, not Nd
  EXPECT_TRUE(IsJavaLetterOrDigit(0x4E00));
  EXPECT_TRUE(IsJavaLetterOrDigit(0xFFDC));   // the last range's end
  EXPECT_FALSE(IsJavaLetterOrDigit(0xD800));
  EXPECT_FALSE(IsJavaLetterOrDigit(0xFFFD));
}

// Namespaces and qualifiers become directory names, so past 255 bytes HBase 2.6.1 loses the
// namespace or retries the table's creation forever; they are refused where they are made.
TEST(SchemaTest, NewNamesStopAt255Bytes) {
  EXPECT_OK(ValidateNewNameLength("Namespace", std::string(255, 'n')));
  EXPECT_OK(ValidateNewNameLength("Table qualifier", std::string(85, '\xe8')));
  const Status s = ValidateNewNameLength("Table qualifier", std::string(256, 't'));
  EXPECT_CODE(kInvalidArgument, s);
  EXPECT_EQ(s.message().find("Table qualifier name is 256 bytes, longer than the 255 bytes"), 0u);
  EXPECT_LT(ValidateNewNameLength("Namespace", std::string(1 << 20, 'n')).message().size(), 200u);
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
