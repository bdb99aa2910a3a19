// Thrift2 filterBytes (filter_bytes.h): HBase's protobuf-serialized filters, as HBase's Java
// client sends them, decode into the filter the filter language builds for the same filter.
// The bytes are built by hand here from the wire format (field numbers and wire types), not
// through our .proto, so a wrong number in thrift/hbase_filter.proto fails these tests.

#include "server/thrift2/filter_bytes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "storage/filter_parser.h"

namespace hbemu::server::thrift2_filter_bytes {
namespace {

using storage::Filter;
using storage::Status;

// ---------------------------------------------------------------- a hand encoder

std::string Varint(uint64_t n) {
  std::string out;
  while (n >= 0x80) {
    out.push_back(static_cast<char>((n & 0x7F) | 0x80));
    n >>= 7;
  }
  out.push_back(static_cast<char>(n));
  return out;
}
std::string Int(int field, int64_t n) { return Varint(static_cast<uint64_t>(field) << 3) + Varint(static_cast<uint64_t>(n)); }
std::string Bytes(int field, const std::string& b) {
  return Varint((static_cast<uint64_t>(field) << 3) | 2) + Varint(b.size()) + b;
}

const std::string kPkg = "org.apache.hadoop.hbase.filter.";
std::string F(const std::string& simple, const std::string& body) {
  return Bytes(1, kPkg + simple) + Bytes(2, body);
}
std::string C(const std::string& simple, const std::string& body) { return F(simple, body); }
std::string Binary(const std::string& v) { return C("BinaryComparator", Bytes(1, Bytes(1, v))); }
std::string BinaryPrefix(const std::string& v) {
  return C("BinaryPrefixComparator", Bytes(1, Bytes(1, v)));
}
std::string Substring(const std::string& v) { return C("SubstringComparator", Bytes(1, v)); }
std::string Regex(const std::string& p, int flags = 32) {
  return C("RegexStringComparator", Bytes(1, p) + Int(2, flags) + Bytes(3, "UTF-8") + Bytes(4, "JAVA"));
}
enum Op { kLess = 0, kLessOrEqual, kEqual, kNotEqual, kGreaterOrEqual, kGreater, kNoOp };
// RowFilter/FamilyFilter/QualifierFilter/ValueFilter body.
std::string Compare(int op, const std::string& comparator) {
  return Bytes(1, Int(1, op) + Bytes(2, comparator));
}
std::string List(int op, std::initializer_list<std::string> filters) {
  std::string body = Int(1, op);
  for (const std::string& f : filters) body += Bytes(2, f);
  return F("FilterList", body);
}

std::string Decoded(const std::string& bytes) {
  std::shared_ptr<const Filter> filter;
  const Status s = DecodeFilterBytes(bytes, &filter);
  if (!s.ok()) return "error " + s.ToString();
  return filter->ToString();
}

// The language's filter for the same text, described the same way.
std::string Parsed(const std::string& text) {
  std::shared_ptr<const Filter> filter;
  const Status s = storage::ParseFilterString(text, &filter);
  if (!s.ok()) return "error " + s.ToString();
  return filter->ToString();
}

Status DecodeStatus(const std::string& bytes, const Limits& limits = CurrentLimits()) {
  std::shared_ptr<const Filter> filter;
  return DecodeFilterBytes(bytes, limits, &filter);
}

// ---------------------------------------------------------------- every registered filter

TEST(FilterBytesTest, EveryFilterOfTheLanguageDecodesToTheFilterItsTextBuilds) {
  const std::pair<std::string, std::string> cases[] = {
      {F("KeyOnlyFilter", Int(1, 1)), "KeyOnlyFilter(true)"},
      {F("FirstKeyOnlyFilter", ""), "FirstKeyOnlyFilter()"},
      {F("PrefixFilter", Bytes(1, "ro'w")), "PrefixFilter('ro''w')"},
      {F("ColumnPrefixFilter", Bytes(1, "q")), "ColumnPrefixFilter('q')"},
      {F("MultipleColumnPrefixFilter", Bytes(1, "a") + Bytes(1, "c")),
       "MultipleColumnPrefixFilter('a', 'c')"},
      {F("ColumnCountGetFilter", Int(1, 3)), "ColumnCountGetFilter(3)"},
      {F("PageFilter", Int(1, 2)), "PageFilter(2)"},
      {F("ColumnPaginationFilter", Int(1, 2) + Int(2, 1)), "ColumnPaginationFilter(2, 1)"},
      {F("InclusiveStopFilter", Bytes(1, "r5")), "InclusiveStopFilter('r5')"},
      // packed, as Java writes it
      {F("TimestampsFilter", Bytes(1, Varint(5) + Varint(7)) + Int(2, 1)), "TimestampsFilter(5, 7)"},
      {F("RowFilter", Compare(kLessOrEqual, Binary("r2"))), "RowFilter(<=, 'binary:r2')"},
      {F("FamilyFilter", Compare(kEqual, BinaryPrefix("f"))), "FamilyFilter(=, 'binaryprefix:f')"},
      {F("QualifierFilter", Compare(kNotEqual, Substring("AB"))),
       "QualifierFilter(!=, 'substring:ab')"},
      {F("ValueFilter", Compare(kEqual, Regex("v.*"))), "ValueFilter(=, 'regexstring:v.*')"},
      {F("ColumnRangeFilter", Bytes(1, "a") + Int(2, 1) + Bytes(3, "c") + Int(4, 0)),
       "ColumnRangeFilter('a', true, 'c', false)"},
      {F("SingleColumnValueFilter", Bytes(1, "f") + Bytes(2, "q") + Int(3, kGreater) +
                                        Bytes(4, Binary("5")) + Int(5, 1) + Int(6, 1)),
       "SingleColumnValueFilter('f', 'q', >, 'binary:5', true, true)"},
      {F("SingleColumnValueExcludeFilter",
         Bytes(1, Bytes(1, "f") + Bytes(2, "q") + Int(3, kEqual) + Bytes(4, Binary("v")) +
                      Int(5, 0) + Int(6, 1))),
       "SingleColumnValueExcludeFilter('f', 'q', =, 'binary:v', false, true)"},
      {F("DependentColumnFilter", Bytes(1, Int(1, kNoOp)) + Bytes(2, "f") + Bytes(3, "q") + Int(4, 1)),
       "DependentColumnFilter('f', 'q', true)"},
      {F("DependentColumnFilter",
         Bytes(1, Int(1, kEqual) + Bytes(2, Binary("v"))) + Bytes(2, "f") + Bytes(3, "q")),
       "DependentColumnFilter('f', 'q', false, =, 'binary:v')"},
      {F("ColumnValueFilter", Bytes(1, "f") + Bytes(2, "q") + Int(3, kGreaterOrEqual) +
                                  Bytes(4, Binary("m"))),
       "ColumnValueFilter('f', 'q', >=, 'binary:m')"},
  };
  for (const auto& [bytes, text] : cases) {
    const std::string parsed = Parsed(text);
    ASSERT_EQ(parsed.rfind("error", 0), std::string::npos) << text << ": " << parsed;
    EXPECT_EQ(Decoded(bytes), parsed) << text;
  }
}

TEST(FilterBytesTest, ListsSkipAndWhileNestAsTheLanguageDoes) {
  const std::string nested = List(1, {F("PrefixFilter", Bytes(1, "r")),
                                      List(2, {F("PageFilter", Int(1, 2)),
                                               F("KeyOnlyFilter", Int(1, 0))})});
  EXPECT_EQ(Decoded(nested), Parsed("PrefixFilter('r') AND (PageFilter(2) OR KeyOnlyFilter())"));
  EXPECT_EQ(Decoded(F("SkipFilter", Bytes(1, F("ValueFilter", Compare(kNotEqual, Binary("0")))))),
            Parsed("SKIP ValueFilter(!=, 'binary:0')"));
  EXPECT_EQ(Decoded(F("WhileMatchFilter", Bytes(1, F("RowFilter", Compare(kLess, Binary("r3")))))),
            Parsed("WHILE RowFilter(<, 'binary:r3')"));
  // An empty list, which the language cannot write, passes everything as HBase's does.
  EXPECT_EQ(Decoded(List(1, {})), "AND()");
}

TEST(FilterBytesTest, RegexFlagsBecomeInlineOptions) {
  EXPECT_EQ(Decoded(F("ValueFilter", Compare(kEqual, Regex("V.", 2 | 32)))),
            "ValueFilter(EQUAL, 'regexstring:(?i)V.')");
  EXPECT_EQ(Decoded(F("ValueFilter", Compare(kEqual, Regex("^v$", 8)))),
            "ValueFilter(EQUAL, 'regexstring:(?m)(?-s)^v$')");
}

TEST(FilterBytesTest, OperandsAreBytesWithQuotesAndColonsKept) {
  const std::string value("a'b:\0c", 6);
  EXPECT_EQ(Decoded(F("ValueFilter", Compare(kEqual, Binary(value)))),
            "ValueFilter(EQUAL, 'binary:a''b:" + std::string("\0", 1) + "c')");
}

// ---------------------------------------------------------------- HBase's errors

TEST(FilterBytesTest, UnknownFilterClassIsClassNotFoundAndNotRetried) {
  const Status s = DecodeStatus(Bytes(1, "org.example.NoSuchFilter") + Bytes(2, ""));
  EXPECT_EQ(s.code(), Status::Code::kDoNotRetry);
  EXPECT_EQ(s.message(), "java.lang.ClassNotFoundException: org.example.NoSuchFilter");
  // Classes HBase has but the filter language does not: the same answer.
  EXPECT_EQ(DecodeStatus(F("FuzzyRowFilter", "")).message(),
            "java.lang.ClassNotFoundException: org.apache.hadoop.hbase.filter.FuzzyRowFilter");
}

TEST(FilterBytesTest, BytesThatAreNoFilterMessageFailAsARetryableIOError) {
  Status s = DecodeStatus("\xff\xff\xff");
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_EQ(s.message().rfind("While parsing a protocol message, the input ended unexpectedly", 0),
            0u)
      << s.message();
  s = DecodeStatus("");
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_EQ(s.message(), "Message missing required fields: name");
  EXPECT_EQ(DecodeStatus(std::string("\x00", 1)).message(),
            "Protocol message contained an invalid tag (zero).");
  EXPECT_EQ(DecodeStatus("\x0f").message(), "Protocol message tag had invalid wire type.");
  EXPECT_EQ(DecodeStatus("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff").message(),
            "CodedInputStream encountered a malformed varint.");
}

TEST(FilterBytesTest, ABadBodyIsADeserializationExceptionWithProtobufsText) {
  const std::string prefix =
      "org.apache.hadoop.hbase.exceptions.DeserializationException: "
      "org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException: ";
  Status s = DecodeStatus(F("PageFilter", ""));
  EXPECT_EQ(s.code(), Status::Code::kDoNotRetry);
  EXPECT_EQ(s.message(), prefix + "Message missing required fields: page_size");
  EXPECT_EQ(DecodeStatus(F("PrefixFilter", Bytes(1, "r") + std::string("\0", 1))).message(),
            prefix + "Protocol message contained an invalid tag (zero).");
  EXPECT_EQ(DecodeStatus(F("ValueFilter", Bytes(1, Int(1, 9) + Bytes(2, Binary("v"))))).message(),
            prefix + "Message missing required fields: compare_filter.compare_op");
  // Unknown fields are skipped, as protobuf does.
  EXPECT_EQ(Decoded(F("PrefixFilter", Bytes(1, "r") + Int(9, 5))), "PrefixFilter('r')");
}

TEST(FilterBytesTest, ArgumentsTheFilterRefusesAreIllegalArgumentExceptions) {
  EXPECT_EQ(DecodeStatus(F("PageFilter", Int(1, -1))).message(),
            "java.lang.IllegalArgumentException: must be positive -1");
}

TEST(FilterBytesTest, ComparatorFailuresAreWrappedAsHBaseWrapsThem) {
  EXPECT_EQ(DecodeStatus(F("ValueFilter", Compare(kEqual, C("NoCmp", "")))).message(),
            "org.apache.hadoop.hbase.exceptions.DeserializationException: java.io.IOException: "
            "java.lang.ClassNotFoundException: org.apache.hadoop.hbase.filter.NoCmp");
  const std::string bad_charset =
      C("RegexStringComparator", Bytes(1, "v") + Int(2, 32) + Bytes(3, "NOPE"));
  EXPECT_EQ(DecodeStatus(F("ValueFilter", Compare(kEqual, bad_charset))).message(),
            "org.apache.hadoop.hbase.exceptions.DeserializationException: java.io.IOException: "
            "java.nio.charset.UnsupportedCharsetException: NOPE");
  const Status s = DecodeStatus(F("ValueFilter", Compare(kEqual, Regex("v("))));
  EXPECT_EQ(s.message().rfind("org.apache.hadoop.hbase.exceptions.DeserializationException: "
                              "java.io.IOException: java.util.regex.PatternSyntaxException: ",
                              0),
            0u)
      << s.message();
}

TEST(FilterBytesTest, ANestedFailureIsWrappedOncePerLevel) {
  const std::string wrap =
      "org.apache.hadoop.hbase.exceptions.DeserializationException: "
      "org.apache.hadoop.hbase.DoNotRetryIOException: ";
  const std::string missing = Bytes(1, "org.example.NoSuchFilter");
  EXPECT_EQ(DecodeStatus(List(1, {missing})).message(),
            wrap + "java.lang.ClassNotFoundException: org.example.NoSuchFilter");
  EXPECT_EQ(DecodeStatus(List(1, {List(1, {missing})})).message(),
            wrap + wrap + "java.lang.ClassNotFoundException: org.example.NoSuchFilter");
  EXPECT_EQ(DecodeStatus(F("SkipFilter", Bytes(1, F("PageFilter", Int(1, -1))))).message(),
            wrap + "java.lang.IllegalArgumentException: must be positive -1");
}

TEST(FilterBytesTest, DepthAndCountLimitsBoundTheTree) {
  Limits limits;
  limits.filter_depth = 3;
  limits.filter_count = 1000;
  std::string filter = F("KeyOnlyFilter", Int(1, 0));
  for (int i = 0; i < 3; ++i) filter = F("SkipFilter", Bytes(1, filter));
  EXPECT_TRUE(DecodeStatus(filter, limits).ok());
  filter = F("SkipFilter", Bytes(1, filter));
  Status s = DecodeStatus(filter, limits);
  EXPECT_EQ(s.code(), Status::Code::kDoNotRetry);
  EXPECT_NE(s.message().find("limit filter_depth=3"), std::string::npos) << s.message();

  limits.filter_count = 4;
  EXPECT_TRUE(DecodeStatus(List(1, {F("PageFilter", Int(1, 1)), F("PageFilter", Int(1, 1)),
                                     F("PageFilter", Int(1, 1))}),
                           limits)
                  .ok());
  s = DecodeStatus(List(2, {F("PageFilter", Int(1, 1)), F("PageFilter", Int(1, 1)),
                            F("PageFilter", Int(1, 1)), F("PageFilter", Int(1, 1))}),
                   limits);
  EXPECT_NE(s.message().find("limit filter_count=4"), std::string::npos) << s.message();
}

TEST(FilterBytesTest, FilterBytesLongerThanTheLimitAreRefusedUnread) {
  Limits limits;
  const std::string filter = F("PrefixFilter", Bytes(1, std::string(100, 'r')));
  limits.filter_bytes = static_cast<int64_t>(filter.size());
  EXPECT_TRUE(DecodeStatus(filter, limits).ok());
  limits.filter_bytes -= 1;
  const Status s = DecodeStatus(filter, limits);
  EXPECT_EQ(s.code(), Status::Code::kDoNotRetry);
  EXPECT_NE(s.message().find("limit filter_bytes="), std::string::npos) << s.message();
}

TEST(FilterBytesTest, AListWiderThanFilterCountIsRefusedBeforeItsMembersAreParsed) {
  Limits limits;
  limits.filter_count = 1000;
  // 1,001 empty members (two bytes each, no name): counted, never parsed, so the answer is the
  // limit, not the missing name.
  std::string body = Int(1, 1);
  for (int i = 0; i < 1001; ++i) body += Bytes(2, "");
  const Status s = DecodeStatus(F("FilterList", body), limits);
  EXPECT_NE(s.message().find("limit filter_count=1000"), std::string::npos) << s.message();
}

TEST(FilterBytesTest, TheDeepestTreeTheDefaultLimitAllowsDecodes) {
  std::string filter = F("PrefixFilter", Bytes(1, "r"));
  for (int64_t i = 0; i < CurrentLimits().filter_depth; ++i) {
    filter = List(1, {filter});
  }
  std::shared_ptr<const Filter> decoded;
  ASSERT_TRUE(DecodeFilterBytes(filter, &decoded).ok());
  EXPECT_EQ(decoded->ToString().size(),
            std::string("PrefixFilter('r')").size() + 5 * CurrentLimits().filter_depth);
  EXPECT_FALSE(DecodeStatus(List(1, {filter})).ok());
}

TEST(FilterBytesTest, WhatTheLanguageCannotSayIsRefusedNotGuessed) {
  EXPECT_NE(DecodeStatus(F("ValueFilter", Compare(kNoOp, Binary("v")))).message().find("NO_OP"),
            std::string::npos);
  EXPECT_NE(DecodeStatus(F("ColumnPaginationFilter", Int(1, 2) + Bytes(3, "q")))
                .message()
                .find("column offset"),
            std::string::npos);
  EXPECT_NE(DecodeStatus(F("ValueFilter", Bytes(1, Int(1, kEqual)))).message().find("comparator"),
            std::string::npos);
}

TEST(FilterBytesTest, DamagedBytesNeverCrashAndAlwaysAnswer) {
  const std::string seeds[] = {
      List(1, {F("PrefixFilter", Bytes(1, "r")),
               F("SkipFilter", Bytes(1, F("ValueFilter", Compare(kEqual, Regex("v.*")))))}),
      F("SingleColumnValueFilter", Bytes(1, "f") + Bytes(2, "q") + Int(3, kGreater) +
                                       Bytes(4, Binary("5")) + Int(5, 1) + Int(6, 1)),
      F("TimestampsFilter", Bytes(1, Varint(5) + Varint(7)) + Int(2, 1)),
      F("MultipleColumnPrefixFilter", Bytes(1, "a") + Bytes(1, "c")),
  };
  std::mt19937 random(20241126);
  int decoded = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = seeds[i % 4];
    const int edits = 1 + static_cast<int>(random() % 3);
    for (int e = 0; e < edits && !bytes.empty(); ++e) {
      const size_t at = random() % bytes.size();
      switch (random() % 3) {
        case 0: bytes[at] = static_cast<char>(random()); break;  // overwrite
        case 1: bytes.resize(at); break;                          // truncate
        default: bytes.insert(at, 1, static_cast<char>(random()));
      }
    }
    std::shared_ptr<const Filter> filter;
    const Status s = DecodeFilterBytes(bytes, &filter);
    if (s.ok()) {
      ASSERT_NE(filter, nullptr);
      ++decoded;
    } else {
      EXPECT_FALSE(s.message().empty());
    }
  }
  EXPECT_GT(decoded, 0);  // some damage still leaves a valid filter (an unknown field, a value)
}

}  // namespace
}  // namespace hbemu::server::thrift2_filter_bytes
