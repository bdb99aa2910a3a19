#include "server/thrift2/filter_bytes.h"

#include <climits>
#include <utility>
#include <vector>

#include "hbase_filter.pb.h"
#include "server/gateway/filter_arguments.h"
#include "storage/comparators.h"
#include "storage/filters.h"

namespace hbemu::server::thrift2_filter_bytes {

using storage::Filter;
using storage::Status;
namespace pb = hbemu::filterpb;

namespace {

constexpr std::string_view kFilterPackage = "org.apache.hadoop.hbase.filter.";
constexpr uint32_t kListMembersField = 2;  // FilterList.filters
// How HBase prints the causes it wraps (each is the Java exception's toString).
constexpr char kDeserialization[] = "org.apache.hadoop.hbase.exceptions.DeserializationException: ";
constexpr char kInvalidProtobuf[] =
    "org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException: ";
// A nested filter's failure, once per FilterList/SkipFilter/WhileMatchFilter level above it.
constexpr char kNested[] =
    "org.apache.hadoop.hbase.exceptions.DeserializationException: "
    "org.apache.hadoop.hbase.DoNotRetryIOException: ";

// A failure while building, as the text HBase's gateway answers with. Limit failures are not
// wrapped per level: the limit is ours, and wrapping would grow the text with the depth.
struct Failure {
  std::string text;
  bool wrap = true;
};

using filter_arguments::Quoted;

const char* BoolArg(bool b) { return filter_arguments::Bool(b); }

// The language has no spelling for NO_OP; it is refused (COMPATIBILITY.md).
bool OperatorArg(pb::CompareType op, std::string* out) {
  switch (op) {
    case pb::LESS: return filter_arguments::OperatorSymbol(storage::CompareOp::kLess, out);
    case pb::LESS_OR_EQUAL: return filter_arguments::OperatorSymbol(storage::CompareOp::kLessOrEqual, out);
    case pb::EQUAL: return filter_arguments::OperatorSymbol(storage::CompareOp::kEqual, out);
    case pb::NOT_EQUAL: return filter_arguments::OperatorSymbol(storage::CompareOp::kNotEqual, out);
    case pb::GREATER_OR_EQUAL:
      return filter_arguments::OperatorSymbol(storage::CompareOp::kGreaterOrEqual, out);
    case pb::GREATER: return filter_arguments::OperatorSymbol(storage::CompareOp::kGreater, out);
    case pb::NO_OP: return false;
  }
  return false;
}

bool IsUtf8CharsetName(const std::string& name) {
  std::string lower;
  for (char c : name) lower.push_back((c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c);
  return lower == "utf-8" || lower == "utf8";
}

// java.util.regex.Pattern flags as inline options in front of the pattern; the storage
// comparator compiles with DOTALL on, as RegexStringComparator's default flags have it.
bool RegexFlagsPrefix(int32_t flags, std::string* prefix) {
  constexpr int32_t kCaseInsensitive = 0x02, kComments = 0x04, kMultiline = 0x08, kDotAll = 0x20,
                    kUnicodeCase = 0x40;
  if ((flags & ~(kCaseInsensitive | kComments | kMultiline | kDotAll | kUnicodeCase)) != 0) {
    return false;  // UNIX_LINES, LITERAL, CANON_EQ, UNICODE_CHARACTER_CLASS
  }
  if (flags & kCaseInsensitive) *prefix += "(?i)";
  if (flags & kComments) *prefix += "(?x)";
  if (flags & kMultiline) *prefix += "(?m)";
  if (!(flags & kDotAll)) *prefix += "(?-s)";
  return true;
}

class Decoder {
 public:
  explicit Decoder(const Limits& limits) : limits_(limits) {}

  // Builds the filter an envelope names. The envelope's body is moved out and released once
  // parsed, so a deep tree holds each byte of the input about once.
  bool Build(pb::Filter* envelope, int64_t depth, std::unique_ptr<Filter>* out, Failure* failure) {
    if (++count_ > limits_.filter_count) {
      return LimitFailure("more than " + std::to_string(limits_.filter_count) + " filters",
                          "filter_count", limits_.filter_count, failure);
    }
    const std::string& name = envelope->name();
    if (name.compare(0, kFilterPackage.size(), kFilterPackage) != 0) return NotFound(name, failure);
    const std::string simple = name.substr(kFilterPackage.size());
    std::string body = std::move(*envelope->mutable_serialized_filter());
    if (simple == "FilterList") return BuildList(std::move(body), depth, out, failure);
    if (simple == "SkipFilter" || simple == "WhileMatchFilter") {
      return BuildWrapper(simple, std::move(body), depth, out, failure);
    }
    if (!storage::IsRegisteredFilter(simple)) return NotFound(name, failure);
    std::vector<std::string> args;
    if (!Arguments(simple, std::move(body), &args, failure)) return false;
    std::string error;
    if (!storage::CreateFilterFromArguments(simple, args, out, &error)) {
      failure->text = "java.lang.IllegalArgumentException: " + error;
      return false;
    }
    return true;
  }

 private:
  static bool NotFound(const std::string& name, Failure* failure) {
    failure->text = "java.lang.ClassNotFoundException: " + name;
    return false;
  }

  static bool LimitFailure(const std::string& what, const char* limit, int64_t value,
                           Failure* failure) {
    failure->text = std::string(kDeserialization) + "filterBytes holds " + what + " (limit " +
                    limit + "=" + std::to_string(value) + "; raise it with --limit " + limit +
                    "=N)";
    failure->wrap = false;
    return false;
  }

  // parseFrom of the class's message: a DeserializationException around protobuf's text.
  template <typename Message>
  static bool ParseBody(std::string body, Message* message, Failure* failure) {
    if (body.size() > static_cast<size_t>(INT_MAX) ||
        !message->ParsePartialFromArray(body.data(), static_cast<int>(body.size()))) {
      failure->text = std::string(kDeserialization) + kInvalidProtobuf +
                      ParseFailureText(body, message->GetDescriptor()->full_name());
      return false;
    }
    if (!message->IsInitialized()) {
      failure->text = std::string(kDeserialization) + kInvalidProtobuf +
                      "Message missing required fields: " + message->InitializationErrorString();
      return false;
    }
    return true;
  }

  bool Nested(pb::Filter* envelope, int64_t depth, std::unique_ptr<Filter>* out,
              Failure* failure) {
    if (depth + 1 > limits_.filter_depth) {
      return LimitFailure("filters nested more than " + std::to_string(limits_.filter_depth) +
                              " levels deep",
                          "filter_depth", limits_.filter_depth, failure);
    }
    if (Build(envelope, depth + 1, out, failure)) return true;
    if (failure->wrap) failure->text = kNested + failure->text;
    return false;
  }

  bool BuildList(std::string body, int64_t depth, std::unique_ptr<Filter>* out,
                 Failure* failure) {
    // Members are counted on the wire first: parsing builds an object per member, 50 times
    // the bytes of a minimal one, so a list past the limit is refused before that.
    if (count_ + CountField(body, kListMembersField) > limits_.filter_count) {
      return LimitFailure("more than " + std::to_string(limits_.filter_count) + " filters",
                          "filter_count", limits_.filter_count, failure);
    }
    pb::FilterList list;
    if (!ParseBody(std::move(body), &list, failure)) return false;
    std::vector<std::unique_ptr<Filter>> filters;
    filters.reserve(list.filters_size());
    for (int i = 0; i < list.filters_size(); ++i) {
      std::unique_ptr<Filter> filter;
      if (!Nested(list.mutable_filters(i), depth, &filter, failure)) return false;
      filters.push_back(std::move(filter));
    }
    const auto op = list.operator_() == pb::FilterList::MUST_PASS_ALL ? storage::FilterList::Op::kAnd
                                                                       : storage::FilterList::Op::kOr;
    *out = std::make_unique<storage::FilterList>(op, std::move(filters));
    return true;
  }

  bool BuildWrapper(const std::string& simple, std::string body, int64_t depth,
                    std::unique_ptr<Filter>* out, Failure* failure) {
    pb::WrappedFilter wrapped;
    if (!ParseBody(std::move(body), &wrapped, failure)) return false;
    std::unique_ptr<Filter> inner;
    if (!Nested(wrapped.mutable_filter(), depth, &inner, failure)) return false;
    if (simple == "SkipFilter") {
      *out = std::make_unique<storage::SkipFilter>(std::move(inner));
    } else {
      *out = std::make_unique<storage::WhileMatchFilter>(std::move(inner));
    }
    return true;
  }

  // The comparator as the language's quoted "type:operand" argument. HBase reports a
  // comparator it cannot build as a DeserializationException around an IOException.
  static bool ComparatorArg(const pb::Comparator& comparator, std::string* out, Failure* failure) {
    std::string cause;
    if (!ComparatorSpec(comparator, out, &cause)) {
      failure->text = std::string(kDeserialization) + "java.io.IOException: " + cause;
      return false;
    }
    *out = Quoted(*out);
    return true;
  }

  static bool ComparatorSpec(const pb::Comparator& comparator, std::string* spec,
                             std::string* cause) {
    const std::string& name = comparator.name();
    const std::string simple = name.compare(0, kFilterPackage.size(), kFilterPackage) == 0
                                   ? name.substr(kFilterPackage.size())
                                   : std::string();
    const std::string& body = comparator.serialized_comparator();
    Failure parse;
    if (simple == "BinaryComparator" || simple == "BinaryPrefixComparator") {
      pb::BytesComparator c;
      if (!ParseBody(body, &c, &parse)) return Cause(parse, cause);
      *spec = (simple == "BinaryComparator" ? "binary:" : "binaryprefix:") + c.comparable().value();
    } else if (simple == "SubstringComparator") {
      pb::SubstringComparator c;
      if (!ParseBody(body, &c, &parse)) return Cause(parse, cause);
      *spec = "substring:" + c.substr();
    } else if (simple == "RegexStringComparator") {
      pb::RegexComparator c;
      if (!ParseBody(body, &c, &parse)) return Cause(parse, cause);
      if (!IsUtf8CharsetName(c.charset())) {
        *cause = "java.nio.charset.UnsupportedCharsetException: " + c.charset();
        return false;
      }
      if (c.has_engine() && c.engine() != "JAVA" && c.engine() != "JONI") {
        *cause = "java.lang.IllegalArgumentException: No enum constant "
                 "org.apache.hadoop.hbase.filter.RegexStringComparator.EngineType." + c.engine();
        return false;
      }
      std::string prefix;
      if (!RegexFlagsPrefix(c.pattern_flags(), &prefix)) {
        *cause = "java.lang.UnsupportedOperationException: hbase-emulator: regular expression "
                 "flags " + std::to_string(c.pattern_flags()) + " (only CASE_INSENSITIVE, "
                 "COMMENTS, MULTILINE, DOTALL and UNICODE_CASE are supported)";
        return false;
      }
      *spec = "regexstring:" + prefix + c.pattern();
      std::string error;
      if (storage::MakeComparator(*spec, &error) == nullptr) {
        *cause = "java.util.regex.PatternSyntaxException: " + error;
        return false;
      }
    } else {
      *cause = "java.lang.ClassNotFoundException: " + name;
      return false;
    }
    return true;
  }

  static bool Cause(const Failure& parse, std::string* cause) {
    *cause = parse.text;
    return false;
  }

  static bool Operator(pb::CompareType op, std::string* out, Failure* failure) {
    if (OperatorArg(op, out)) return true;
    failure->text = std::string(kDeserialization) +
                    "hbase-emulator: the NO_OP compare operator is not supported in filterBytes";
    return false;
  }

  static bool CompareArgs(const std::string& simple, const pb::CompareFilter& compare,
                          std::vector<std::string>* args, Failure* failure) {
    if (!compare.has_comparator()) {
      // HBase accepts it and fails every read with a NullPointerException, retried.
      failure->text = std::string(kDeserialization) + "hbase-emulator: " + simple +
                      " without a comparator cannot compare anything";
      return false;
    }
    std::string op, comparator;
    if (!Operator(compare.compare_op(), &op, failure) ||
        !ComparatorArg(compare.comparator(), &comparator, failure)) {
      return false;
    }
    args->push_back(std::move(op));
    args->push_back(std::move(comparator));
    return true;
  }

  static bool ColumnTestArgs(const std::string& family, const std::string& qualifier,
                             pb::CompareType compare_op, const pb::Comparator& comparator,
                             std::vector<std::string>* args, Failure* failure) {
    std::string op, cmp;
    if (!Operator(compare_op, &op, failure) || !ComparatorArg(comparator, &cmp, failure)) {
      return false;
    }
    *args = {Quoted(family), Quoted(qualifier), std::move(op), std::move(cmp)};
    return true;
  }

  // One registered filter's body as the factory's argument list.
  static bool Arguments(const std::string& simple, std::string body,
                        std::vector<std::string>* args, Failure* failure) {
    if (simple == "KeyOnlyFilter") {
      pb::KeyOnlyFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      args->push_back(BoolArg(m.len_as_val()));
    } else if (simple == "FirstKeyOnlyFilter") {
      pb::FirstKeyOnlyFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
    } else if (simple == "PrefixFilter") {
      pb::PrefixFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      args->push_back(Quoted(m.prefix()));
    } else if (simple == "ColumnPrefixFilter") {
      pb::ColumnPrefixFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      args->push_back(Quoted(m.prefix()));
    } else if (simple == "MultipleColumnPrefixFilter") {
      pb::MultipleColumnPrefixFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      for (const std::string& p : m.sorted_prefixes()) args->push_back(Quoted(p));
    } else if (simple == "ColumnCountGetFilter") {
      pb::ColumnCountGetFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      args->push_back(std::to_string(m.limit()));
    } else if (simple == "PageFilter") {
      pb::PageFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      args->push_back(std::to_string(m.page_size()));
    } else if (simple == "ColumnPaginationFilter") {
      pb::ColumnPaginationFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      if (m.has_column_offset()) {
        failure->text = std::string(kDeserialization) +
                        "hbase-emulator: ColumnPaginationFilter with a column offset is not "
                        "supported (the filter language has only the numeric offset)";
        return false;
      }
      *args = {std::to_string(m.limit()), std::to_string(m.offset())};
    } else if (simple == "InclusiveStopFilter") {
      pb::InclusiveStopFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      args->push_back(Quoted(m.stop_row_key()));
    } else if (simple == "TimestampsFilter") {
      pb::TimestampsFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      for (int64_t ts : m.timestamps()) args->push_back(std::to_string(ts));
    } else if (simple == "RowFilter" || simple == "FamilyFilter" || simple == "QualifierFilter" ||
               simple == "ValueFilter") {
      pb::CompareFilterOnly m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      return CompareArgs(simple, m.compare_filter(), args, failure);
    } else if (simple == "ColumnRangeFilter") {
      pb::ColumnRangeFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      *args = {Quoted(m.min_column()), BoolArg(m.min_column_inclusive()),
               Quoted(m.max_column()), BoolArg(m.max_column_inclusive())};
    } else if (simple == "SingleColumnValueFilter" || simple == "SingleColumnValueExcludeFilter") {
      pb::SingleColumnValueFilter m;
      if (simple == "SingleColumnValueFilter") {
        if (!ParseBody(std::move(body), &m, failure)) return false;
      } else {
        pb::SingleColumnValueExcludeFilter exclude;
        if (!ParseBody(std::move(body), &exclude, failure)) return false;
        m.Swap(exclude.mutable_single_column_value_filter());
      }
      if (!ColumnTestArgs(m.column_family(), m.column_qualifier(), m.compare_op(), m.comparator(),
                          args, failure)) {
        return false;
      }
      args->push_back(BoolArg(m.filter_if_missing()));
      args->push_back(BoolArg(m.latest_version_only()));
    } else if (simple == "DependentColumnFilter") {
      pb::DependentColumnFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      *args = {Quoted(m.column_family()), Quoted(m.column_qualifier()),
               BoolArg(m.drop_dependent_column())};
      // Without a comparator HBase never compares, whatever the operator says.
      if (m.compare_filter().has_comparator()) {
        return CompareArgs(simple, m.compare_filter(), args, failure);
      }
    } else if (simple == "ColumnValueFilter") {
      pb::ColumnValueFilter m;
      if (!ParseBody(std::move(body), &m, failure)) return false;
      return ColumnTestArgs(m.family(), m.qualifier(), m.compare_op(), m.comparator(), args,
                            failure);
    } else {
      // A registered name without a decoder here: a registry addition this file has not
      // followed yet.
      failure->text = "java.lang.ClassNotFoundException: " + std::string(kFilterPackage) + simple;
      return false;
    }
    return true;
  }

  const Limits& limits_;
  int64_t count_ = 0;
};

}  // namespace

Status DecodeFilterBytes(std::string_view bytes, std::shared_ptr<const Filter>* out) {
  return DecodeFilterBytes(bytes, CurrentLimits(), out);
}

Status DecodeFilterBytes(std::string_view bytes, const Limits& limits,
                         std::shared_ptr<const Filter>* out) {
  if (static_cast<int64_t>(bytes.size()) > limits.filter_bytes) {
    return Status::DoNotRetry(std::string(kDeserialization) + "filterBytes is " +
                              std::to_string(bytes.size()) + " bytes long (limit filter_bytes=" +
                              std::to_string(limits.filter_bytes) +
                              "; raise it with --limit filter_bytes=N)");
  }
  // HBase parses the envelope before anything else; its protobuf errors are plain
  // IOExceptions there.
  pb::Filter envelope;
  if (bytes.size() > static_cast<size_t>(INT_MAX) ||
      !envelope.ParsePartialFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::IOError(ParseFailureText(bytes, pb::Filter::descriptor()->full_name()));
  }
  if (!envelope.IsInitialized()) {
    return Status::IOError("Message missing required fields: " +
                           envelope.InitializationErrorString());
  }
  std::unique_ptr<Filter> filter;
  Failure failure;
  if (!Decoder(limits).Build(&envelope, 0, &filter, &failure)) {
    return Status::DoNotRetry(std::move(failure.text));
  }
  *out = std::move(filter);
  return Status::OK();
}

}  // namespace hbemu::server::thrift2_filter_bytes
