#include "server/rest/filter_model.h"

#include <gtest/gtest.h>

#include "storage/filter_parser.h"

namespace hbemu::server::rest {
namespace {

using storage::Filter;

std::string Built(const std::string& json, const Limits& limits = CurrentLimits()) {
  std::shared_ptr<const Filter> filter;
  const BodyStatus s = BuildScannerFilter(json, limits, &filter);
  if (!s.ok()) return "error " + std::to_string(s.http_status()) + " " + s.message();
  return filter->ToString();
}

// The language's filter for the same text, described the same way.
std::string Parsed(const std::string& text) {
  std::shared_ptr<const Filter> filter;
  const storage::Status s = storage::ParseFilterString(text, &filter);
  if (!s.ok()) return "error " + s.ToString();
  return filter->ToString();
}

// JSON as HBase's ScannerModel.stringifyFilter writes each filter (base64: "cjE=" is "r1",
// "Zg==" "f", "cQ==" "q", "YQ==" "a", "Yw==" "c", "djE=" "v1").
TEST(FilterModelTest, EveryFilterBuildsWhatItsFilterLanguageTextBuilds) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"type":"KeyOnlyFilter"})", "KeyOnlyFilter()"},
      {R"({"type":"FirstKeyOnlyFilter"})", "FirstKeyOnlyFilter()"},
      {R"({"type":"PrefixFilter","value":"cjE="})", "PrefixFilter('r1')"},
      {R"({"type":"ColumnPrefixFilter","value":"cQ=="})", "ColumnPrefixFilter('q')"},
      {R"({"type":"MultipleColumnPrefixFilter","prefixes":["YQ==","Yw=="]})",
       "MultipleColumnPrefixFilter('a', 'c')"},
      {R"({"type":"ColumnCountGetFilter","limit":3})", "ColumnCountGetFilter(3)"},
      {R"({"type":"PageFilter","value":"2"})", "PageFilter(2)"},
      {R"({"type":"ColumnPaginationFilter","limit":2,"offset":1})", "ColumnPaginationFilter(2, 1)"},
      {R"({"type":"InclusiveStopFilter","value":"cjE="})", "InclusiveStopFilter('r1')"},
      {R"({"type":"TimestampsFilter","timestamps":[5,7]})", "TimestampsFilter(5, 7)"},
      {R"({"type":"RowFilter","op":"LESS_OR_EQUAL","comparator":{"type":"BinaryComparator","value":"cjE="}})",
       "RowFilter(<=, 'binary:r1')"},
      {R"({"type":"FamilyFilter","op":"EQUAL","comparator":{"type":"BinaryPrefixComparator","value":"Zg=="}})",
       "FamilyFilter(=, 'binaryprefix:f')"},
      {R"({"type":"QualifierFilter","op":"NOT_EQUAL","comparator":{"type":"SubstringComparator","value":"AB"}})",
       "QualifierFilter(!=, 'substring:AB')"},
      {R"({"type":"ValueFilter","op":"EQUAL","comparator":{"type":"RegexStringComparator","value":"v.*"}})",
       "ValueFilter(=, 'regexstring:v.*')"},
      {R"({"type":"ColumnRangeFilter","minColumn":"YQ==","minColumnInclusive":true,"maxColumn":"Yw==","maxColumnInclusive":false})",
       "ColumnRangeFilter('a', true, 'c', false)"},
      {R"({"type":"SingleColumnValueFilter","op":"GREATER","family":"Zg==","qualifier":"cQ==",)"
       R"("comparator":{"type":"BinaryComparator","value":"djE="},"ifMissing":true,"latestVersion":true})",
       "SingleColumnValueFilter('f', 'q', >, 'binary:v1', true, true)"},
      // Absent ifMissing/latestVersion: HBase's defaults (false, true).
      {R"({"type":"SingleColumnValueExcludeFilter","op":"EQUAL","family":"Zg==","qualifier":"cQ==",)"
       R"("comparator":{"type":"BinaryComparator","value":"djE="}})",
       "SingleColumnValueExcludeFilter('f', 'q', =, 'binary:v1', false, true)"},
      {R"({"type":"DependentColumnFilter","op":"EQUAL","family":"Zg==","qualifier":"cQ==",)"
       R"("comparator":{"type":"BinaryComparator","value":"djE="},"dropDependentColumn":true})",
       "DependentColumnFilter('f', 'q', true, =, 'binary:v1')"},
  };
  for (const auto& [json, text] : cases) {
    const std::string parsed = Parsed(text);
    ASSERT_EQ(parsed.rfind("error", 0), std::string::npos) << text << ": " << parsed;
    EXPECT_EQ(Built(json), parsed) << json;
  }
}

TEST(FilterModelTest, ListsSkipAndWhileNestAsTheLanguageDoes) {
  EXPECT_EQ(Built(R"({"type":"FilterList","op":"MUST_PASS_ALL","filters":[)"
                  R"({"type":"PrefixFilter","value":"cjE="},)"
                  R"({"type":"FilterList","op":"MUST_PASS_ONE","filters":[{"type":"PageFilter","value":"2"},)"
                  R"({"type":"SkipFilter","filters":[{"type":"ValueFilter","op":"EQUAL",)"
                  R"("comparator":{"type":"BinaryComparator","value":"djE="}}]}]}]})"),
            Parsed("PrefixFilter('r1') AND (PageFilter(2) OR (SKIP ValueFilter(=, 'binary:v1')))"));
  EXPECT_EQ(Built(R"({"type":"WhileMatchFilter","filters":[{"type":"KeyOnlyFilter"}]})"),
            Parsed("WHILE KeyOnlyFilter()"));
}

// The real gateway answers 400 to each of these scanner filters; our messages name the fault.
TEST(FilterModelTest, BadTreesAreRefusedNamingTheFault) {
  const std::pair<std::string, std::string> cases[] = {
      {"not json", "error 400 filter is not valid JSON"},
      {R"({"type":"NoSuchFilter"})", "error 400 unknown filter type \"NoSuchFilter\""},
      {R"({"type":"PrefixFilter","value":"!!"})", "error 400 field \"value\" is not valid base64"},
      {R"({"type":"PrefixFilter","bogus":"x"})", "error 400 unrecognized filter field \"bogus\""},
      {R"({"type":"PrefixFilter"})", "error 400 missing field \"value\""},
      {R"({"type":"RowFilter","op":"BAD","comparator":{"type":"BinaryComparator","value":"cjE="}})",
       "error 400 unknown compare operator \"BAD\""},
      {R"({"type":"RowFilter","op":"EQUAL","comparator":{"type":"OddComparator","value":"cjE="}})",
       "error 400 unknown comparator type \"OddComparator\""},
      {R"({"type":"FilterList","op":"XOR","filters":[]})", "error 400 unknown FilterList operator \"XOR\""},
      {R"({"type":"ColumnCountGetFilter","limit":"three"})", "error 400 field \"limit\" must be an integer"},
      {R"({"type":"SkipFilter","filters":[]})", "error 400 SkipFilter needs a filter in \"filters\""},
      {R"([1])", "error 400 a filter must be a JSON object"},
      {R"({})", "error 400 missing field \"type\""},
  };
  for (const auto& [json, expected] : cases) EXPECT_EQ(Built(json), expected) << json;
}

TEST(FilterModelTest, TypesTheStoreCannotEvaluateAreRefusedByName) {
  EXPECT_EQ(Built(R"({"type":"RandomRowFilter","chance":0.5})"),
            "error 400 RandomRowFilter is not supported by hbase-emulator");
  EXPECT_EQ(Built(R"({"type":"MultiRowRangeFilter","ranges":[]})"),
            "error 400 MultiRowRangeFilter is not supported by hbase-emulator");
  EXPECT_EQ(Built(R"({"type":"FuzzyRowFilter","fuzzyKeys":[]})"),
            "error 400 FuzzyRowFilter is not supported by hbase-emulator");
  EXPECT_EQ(Built(R"({"type":"RowFilter","op":"EQUAL","comparator":{"type":"BitComparator","value":"cjE=","op":"AND"}})"),
            "error 400 BitComparator is not supported by hbase-emulator");
  EXPECT_EQ(Built(R"({"type":"RowFilter","op":"NO_OP","comparator":{"type":"NullComparator"}})"),
            "error 400 the NO_OP operator is not supported by hbase-emulator");
}

std::string Nested(int levels) {
  std::string json;
  for (int i = 0; i < levels; ++i) json += R"({"type":"WhileMatchFilter","filters":[)";
  json += R"({"type":"KeyOnlyFilter"})";
  for (int i = 0; i < levels; ++i) json += "]}";
  return json;
}

TEST(FilterModelTest, DepthIsBoundedByTheFilterDepthLimit) {
  Limits limits;
  limits.filter_depth = 10;
  EXPECT_EQ(Built(Nested(9), limits).rfind("error", 0), std::string::npos);
  EXPECT_EQ(Built(Nested(10), limits),
            "error 400 filters nested more than 10 levels deep (limit filter_depth)");
  // Far past the limit: refused by the shape check, before any parse, naming the same limit.
  EXPECT_EQ(Built(Nested(100000), limits),
            "error 400 filter body nests deeper than its bound (limit filter_depth)");
}

TEST(FilterModelTest, CountIsBoundedByTheFilterCountLimit) {
  Limits limits;
  limits.filter_count = 50;
  std::string list = R"({"type":"FilterList","op":"MUST_PASS_ONE","filters":[)";
  for (int i = 0; i < 60; ++i) list += std::string(i ? "," : "") + R"({"type":"KeyOnlyFilter"})";
  list += "]}";
  EXPECT_EQ(Built(list, limits), "error 400 more than 50 filters (limit filter_count)");
}

}  // namespace
}  // namespace hbemu::server::rest
