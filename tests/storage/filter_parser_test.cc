// The filter-language parser (docs/hbase-semantics.md#grammar, #malformed-filter-strings; golden
// cases G68, G69, G73, G74): precedence, parentheses and their quirk, quoting, argument conversion,
// comparators and the operators each allows, the registry of 19 names, and the errors HBase raises.

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "storage/filter_parser.h"
#include "storage/filters.h"
#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

std::string Tree(const std::string& text) {
  std::shared_ptr<const Filter> f;
  const Status s = ParseFilterString(text, &f);
  if (!s.ok()) return "error: " + s.message();
  return f->ToString();
}

void ExpectRejected(const std::string& text) {
  std::shared_ptr<const Filter> f;
  const Status s = ParseFilterString(text, &f);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << "'" << text << "' parsed as "
                                                      << (f ? f->ToString() : "?");
}

const char* kA = "PrefixFilter('a')";
const char* kB = "PrefixFilter('b')";
const char* kC = "PrefixFilter('c')";

TEST(FilterParserTest, RegistryHoldsExactlyHBasesNineteenNames) {
  EXPECT_EQ(RegisteredFilterNames().size(), 19u);
  for (const char* name : {"KeyOnlyFilter", "FirstKeyOnlyFilter", "PrefixFilter",
                           "ColumnPrefixFilter", "MultipleColumnPrefixFilter",
                           "ColumnCountGetFilter", "PageFilter", "ColumnPaginationFilter",
                           "InclusiveStopFilter", "TimestampsFilter", "RowFilter", "FamilyFilter",
                           "QualifierFilter", "ValueFilter", "ColumnRangeFilter",
                           "SingleColumnValueFilter", "SingleColumnValueExcludeFilter",
                           "DependentColumnFilter", "ColumnValueFilter"}) {
    EXPECT_TRUE(IsRegisteredFilter(name)) << name;
  }
  for (const char* name : {"TimeStampsFilter", "FuzzyRowFilter", "MultiRowRangeFilter",
                           "RandomRowFilter", "FilterList", "SkipFilter", "WhileMatchFilter",
                           "FirstKeyValueMatchingQualifiersFilter", "prefixfilter"}) {
    EXPECT_FALSE(IsRegisteredFilter(name)) << name;
  }
}

TEST(FilterParserTest, AndBindsTighterThanOr) {
  EXPECT_EQ(Tree(std::string(kA) + " AND " + kB + " OR " + kC),
            "OR(AND(PrefixFilter('a'), PrefixFilter('b')), PrefixFilter('c'))");
  EXPECT_EQ(Tree(std::string(kA) + " OR " + kB + " AND " + kC),
            "OR(PrefixFilter('a'), AND(PrefixFilter('b'), PrefixFilter('c')))");
}

TEST(FilterParserTest, AChainOfOneOperatorIsOneList) {
  EXPECT_EQ(Tree(std::string(kA) + " AND " + kB + " AND " + kC),
            "AND(PrefixFilter('a'), PrefixFilter('b'), PrefixFilter('c'))");
  EXPECT_EQ(Tree(std::string(kA) + " OR " + kB + " AND " + kC + " OR " + kA),
            "OR(PrefixFilter('a'), AND(PrefixFilter('b'), PrefixFilter('c')), PrefixFilter('a'))");
}

TEST(FilterParserTest, SkipAndWhileBindToTheNextOperand) {
  EXPECT_EQ(Tree(std::string(kA) + " AND SKIP " + kB + " OR " + kC),
            "OR(AND(PrefixFilter('a'), SKIP(PrefixFilter('b'))), PrefixFilter('c'))");
  EXPECT_EQ(Tree("SKIP WHILE " + std::string(kA)), "SKIP(WHILE(PrefixFilter('a')))");
  EXPECT_EQ(Tree("WHILE(" + std::string(kA) + ")"), "WHILE(PrefixFilter('a'))");
  EXPECT_EQ(Tree("SKIP (" + std::string(kA) + " OR " + kB + ")"),
            "SKIP(OR(PrefixFilter('a'), PrefixFilter('b')))");
}

TEST(FilterParserTest, ParenthesesGroup) {
  EXPECT_EQ(Tree("(" + std::string(kA) + " OR " + kB + ") AND " + kC),
            "AND(OR(PrefixFilter('a'), PrefixFilter('b')), PrefixFilter('c'))");
  EXPECT_EQ(Tree("((" + std::string(kA) + "))"), "PrefixFilter('a')");
  EXPECT_EQ(Tree("(" + std::string(kA) + " OR (" + kB + " AND " + kC + "))"),
            "OR(PrefixFilter('a'), AND(PrefixFilter('b'), PrefixFilter('c')))");
}

// G74 [code-read]: ParseFilter loses a pending lower-precedence operator at ')' and fails.
TEST(FilterParserTest, PendingHigherPrecedenceOperatorInsideParenthesesIsMismatched) {
  std::shared_ptr<const Filter> f;
  const Status s =
      ParseFilterString("(" + std::string(kA) + " OR " + kB + " AND " + kC + ")", &f);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(), "Mismatched parenthesis");
  ExpectRejected("(" + std::string(kA) + " OR SKIP " + kB + ")");
  ExpectRejected(std::string(kA) + " AND (" + kB + " OR " + kC + " AND " + kA + ")");
  // Without the enclosing parentheses the same expression is fine.
  EXPECT_EQ(Tree(std::string(kA) + " OR " + kB + " AND " + kC),
            "OR(PrefixFilter('a'), AND(PrefixFilter('b'), PrefixFilter('c')))");
}

// ParseFilter pops a left-over '(' at the end like an operator, so HBase accepts this.
TEST(FilterParserTest, UnclosedLeftParenthesisIsAcceptedAsHBaseDoes) {
  EXPECT_EQ(Tree("(" + std::string(kA)), "PrefixFilter('a')");
  EXPECT_EQ(Tree("(" + std::string(kA) + " AND " + kB), "AND(PrefixFilter('a'), PrefixFilter('b'))");
}

TEST(FilterParserTest, KeywordsNeedSpacesOrParenthesesAround) {
  EXPECT_EQ(Tree(std::string(kA) + " AND" + kB).rfind("error", 0), 0u);
  EXPECT_EQ(Tree(std::string(kA) + "AND " + kB), "AND(PrefixFilter('a'), PrefixFilter('b'))")
      << "')' counts as the separator before AND";
  EXPECT_EQ(Tree("(" + std::string(kA) + ")AND(" + kB + ")"),
            "AND(PrefixFilter('a'), PrefixFilter('b'))");
  EXPECT_EQ(Tree(std::string(kA) + "\tAND\t" + kB).rfind("error", 0), 0u)
      << "a TAB is skipped between tokens but does not delimit a keyword";
  EXPECT_EQ(Tree("\t " + std::string(kA) + " \t"), "PrefixFilter('a')");
}

TEST(FilterParserTest, LowerCaseOperatorIsAnUnknownFilterName) {
  std::shared_ptr<const Filter> f;
  const Status s = ParseFilterString(std::string(kA) + " and " + kB, &f);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(), "Filter Name and not supported");
}

TEST(FilterParserTest, UnknownOrWrongCaseNameIsNotSupported) {
  std::shared_ptr<const Filter> f;
  Status s = ParseFilterString("NoSuchFilter('x')", &f);
  EXPECT_EQ(s.message(), "Filter Name NoSuchFilter not supported");
  s = ParseFilterString("prefixfilter('a')", &f);
  EXPECT_EQ(s.message(), "Filter Name prefixfilter not supported");
  s = ParseFilterString("TimeStampsFilter(1)", &f);
  EXPECT_EQ(s.message(), "Filter Name TimeStampsFilter not supported");
}

// G73: every malformed string is rejected, never silently accepted.
TEST(FilterParserTest, MalformedStringsAreRejected) {
  for (const std::string& bad : std::vector<std::string>{
           "", "   ", "PrefixFilter()", "ValueFilter(<, 'regexstring:a.*')",
           "PrefixFilter('a') PrefixFilter('b')", "PrefixFilter('a'))",
           "PrefixFilter('a') AND", "AND PrefixFilter('a')", "OR", "SKIP", "WHILE ",
           "PrefixFilter('a", "PrefixFilter", "PrefixFilter('a' 'b')", "PrefixFilter(a)",
           "ValueFilter(~=, 'binary:a')", "ValueFilter(==, 'binary:a')",
           "ValueFilter(=, 'nosuch:a')", "ValueFilter(=, 'binary')", "ValueFilter(=, binary:a)",
           "ValueFilter(=, 'regexstring:(')", "KeyOnlyFilter(yes)", "KeyOnlyFilter(true, true)",
           "FirstKeyOnlyFilter(1)", "PageFilter(-1)", "PageFilter(+1)", "PageFilter(0x10)",
           "PageFilter(1.5)", "PageFilter('1')", "PageFilter(9223372036854775808)",
           "ColumnPaginationFilter(2147483648, 0)", "ColumnPaginationFilter(-1, 0)",
           "ColumnCountGetFilter(-1)", "TimestampsFilter(-5)",
           "MultipleColumnPrefixFilter('a', 'a')", "SingleColumnValueFilter('f', 'q', =)",
           "SingleColumnValueFilter('f', 'q', =, 'binary:1', true)",
           "SingleColumnValueFilter('f', 'q', >, 'substring:1')",
           "ColumnValueFilter('f', 'q', <=, 'regexstring:1')", "DependentColumnFilter('f')",
           "DependentColumnFilter('f', 'q', true, =)", "ColumnRangeFilter('a', true, 'b')",
           ")", "()", "(())", "PrefixFilter('a') OR OR PrefixFilter('b')"}) {
    ExpectRejected(bad);
  }
}

TEST(FilterParserTest, DoubledQuoteInsideAQuotedArgumentIsOneQuote) {
  EXPECT_EQ(Tree("ValueFilter(=, 'binary:it''s')"), "ValueFilter(EQUAL, 'binary:it''s')");
  EXPECT_EQ(Tree("PrefixFilter('''')"), "PrefixFilter('''')");
  EXPECT_EQ(Tree("PrefixFilter('a)b')"), "PrefixFilter('a)b')") << "')' inside quotes";
  EXPECT_EQ(Tree("ColumnRangeFilter('', true, 'c', true)"),
            "ColumnRangeFilter('', true, 'c', true)");
}

TEST(FilterParserTest, ComparatorSplitsAtTheFirstColon) {
  EXPECT_EQ(Tree("ValueFilter(=, 'binary:a:b')"), "ValueFilter(EQUAL, 'binary:a:b')");
  EXPECT_EQ(Tree("RowFilter(>=, 'binaryprefix:')"), "RowFilter(GREATER_OR_EQUAL, 'binaryprefix:')");
}

TEST(FilterParserTest, EveryOperatorSpellingMapsToHBasesOperator) {
  EXPECT_EQ(Tree("ValueFilter(<, 'binary:x')"), "ValueFilter(LESS, 'binary:x')");
  EXPECT_EQ(Tree("ValueFilter(<=, 'binary:x')"), "ValueFilter(LESS_OR_EQUAL, 'binary:x')");
  EXPECT_EQ(Tree("ValueFilter(=, 'binary:x')"), "ValueFilter(EQUAL, 'binary:x')");
  EXPECT_EQ(Tree("ValueFilter(!=, 'binary:x')"), "ValueFilter(NOT_EQUAL, 'binary:x')");
  EXPECT_EQ(Tree("ValueFilter(>=, 'binary:x')"), "ValueFilter(GREATER_OR_EQUAL, 'binary:x')");
  EXPECT_EQ(Tree("ValueFilter(>, 'binary:x')"), "ValueFilter(GREATER, 'binary:x')");
}

TEST(FilterParserTest, RegexAndSubstringAllowOnlyEqualAndNotEqual) {
  EXPECT_EQ(Tree("ValueFilter(=, 'regexstring:^a.*$')"), "ValueFilter(EQUAL, 'regexstring:^a.*$')");
  EXPECT_EQ(Tree("QualifierFilter(!=, 'substring:AbC')"),
            "QualifierFilter(NOT_EQUAL, 'substring:abc')");
  for (const char* op : {"<", "<=", ">=", ">"}) {
    ExpectRejected(std::string("ValueFilter(") + op + ", 'regexstring:a')");
    ExpectRejected(std::string("RowFilter(") + op + ", 'substring:a')");
  }
  // DependentColumnFilter's 5-argument form does not check (HBase does not either).
  EXPECT_EQ(Tree("DependentColumnFilter('f', 'q', false, <, 'regexstring:a')"),
            "DependentColumnFilter('f', 'q', false, LESS, 'regexstring:a')");
}

TEST(FilterParserTest, ArgumentsAreSeparatedBySpacesOrCommasAlike) {
  EXPECT_EQ(Tree("SingleColumnValueFilter('f' 'q' = 'binary:1')"),
            "SingleColumnValueFilter('f', 'q', EQUAL, 'binary:1', false, true)");
  EXPECT_EQ(Tree("SingleColumnValueFilter(,'f',,'q',=,'binary:1',TRUE,False)"),
            "SingleColumnValueFilter('f', 'q', EQUAL, 'binary:1', true, false)");
  EXPECT_EQ(Tree("PrefixFilter ('a')"), "PrefixFilter('a')");
}

// ParseFilter.getFilterArguments steps one byte past a closing quote whatever it is.
TEST(FilterParserTest, TheByteRightAfterAClosingQuoteIsSkipped) {
  EXPECT_EQ(Tree("PrefixFilter('a'x)"), "PrefixFilter('a')");
}

TEST(FilterParserTest, EveryFilterAcceptsItsDocumentedArgumentLists) {
  for (const char* ok : {
           "KeyOnlyFilter()", "KeyOnlyFilter(true)", "FirstKeyOnlyFilter()", "PrefixFilter('')",
           "ColumnPrefixFilter('q')", "MultipleColumnPrefixFilter()",
           "MultipleColumnPrefixFilter('a', 'b', 'c')", "ColumnCountGetFilter(0)",
           "PageFilter(0)", "PageFilter(9223372036854775807)", "ColumnPaginationFilter(2, 1)",
           "InclusiveStopFilter('r')", "TimestampsFilter()", "TimestampsFilter(1, 2, 3)",
           "RowFilter(=, 'binary:r')", "FamilyFilter(=, 'binary:f')",
           "QualifierFilter(=, 'binaryprefix:q')", "ValueFilter(=, 'substring:v')",
           "ColumnRangeFilter('a', false, 'b', true)",
           "SingleColumnValueFilter('f', 'q', =, 'binary:1')",
           "SingleColumnValueExcludeFilter('f', 'q', =, 'binary:1', true, false)",
           "DependentColumnFilter('f', 'q')", "DependentColumnFilter('f', 'q', true)",
           "DependentColumnFilter('f', 'q', true, =, 'binary:1')",
           "ColumnValueFilter('f', 'q', >, 'binary:1')"}) {
    EXPECT_EQ(Tree(ok).rfind("error", 0), std::string::npos) << ok << ": " << Tree(ok);
  }
}

TEST(FilterParserTest, ArgumentErrorsReportTheSimpleExpression) {
  std::shared_ptr<const Filter> f;
  const Status s = ParseFilterString("PrefixFilter('a') AND PageFilter(x)", &f);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message().rfind("Incorrect filter string PageFilter(x)", 0), 0u) << s.message();
}

TEST(FilterParserTest, ClonesAreIndependentFreshInstances) {
  std::shared_ptr<const Filter> f;
  ASSERT_OK(ParseFilterString("PageFilter(1)", &f));
  auto a = f->Clone();
  auto b = f->Clone();
  EXPECT_FALSE(a->FilterRow());
  EXPECT_TRUE(a->FilterAllRemaining());
  EXPECT_FALSE(b->FilterAllRemaining()) << "state is per instance";
}

}  // namespace
}  // namespace hbemu::storage
