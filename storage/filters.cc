#include "storage/filters.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "storage/comparators.h"

namespace hbemu::storage {
namespace {

// ---------------------------------------------------------------- argument conversion
// ParseFilter's helpers: removeQuotesFromByteArray, convertByteArrayToLong/Int/Boolean,
// createCompareOperator, createComparator.

bool Unquote(const std::string& arg, std::string* out, std::string* error) {
  if (arg.size() < 2 || arg.front() != '\'' || arg.back() != '\'') {
    *error = "removeQuotesFromByteArray needs a quoted byte array";
    return false;
  }
  *out = arg.substr(1, arg.size() - 2);
  return true;
}

// Java's loop: optional '-', then digits; it notices overflow only when the running value
// turns negative.
bool ToLong(const std::string& arg, int64_t* out, std::string* error) {
  size_t i = 0;
  bool negative = false;
  if (!arg.empty() && arg[0] == '-') {
    negative = true;
    i = 1;
  }
  uint64_t result = 0;
  for (; i < arg.size(); ++i) {
    if (arg[i] < '0' || arg[i] > '9') {
      *error = "Byte Array should only contain digits";
      return false;
    }
    result = result * 10 + static_cast<uint64_t>(arg[i] - '0');
    if (static_cast<int64_t>(result) < 0) {
      *error = "Long Argument too large";
      return false;
    }
  }
  *out = negative ? -static_cast<int64_t>(result) : static_cast<int64_t>(result);
  return true;
}

bool ToInt(const std::string& arg, int32_t* out, std::string* error) {
  int64_t v = 0;
  if (!ToLong(arg, &v, error)) return false;
  if (v > INT32_MAX) {
    *error = "Integer Argument too large";
    return false;
  }
  if (v < INT32_MIN) {
    *error = "Integer Argument too small";
    return false;
  }
  *out = static_cast<int32_t>(v);
  return true;
}

bool ToBool(const std::string& arg, bool* out, std::string* error) {
  std::string lower = arg;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; });
  if (lower == "true") *out = true;
  else if (lower == "false") *out = false;
  else {
    *error = "Incorrect Boolean Expression";
    return false;
  }
  return true;
}

bool ToOp(const std::string& arg, CompareOp* op, std::string* error) {
  if (ParseCompareOp(arg, op)) return true;
  *error = "Invalid compare operator";
  return false;
}

bool ToComparator(const std::string& arg, std::shared_ptr<const Comparator>* out,
                  std::string* error) {
  std::string spec;
  if (!Unquote(arg, &spec, error)) return false;
  *out = MakeComparator(spec, error);
  return *out != nullptr;
}

bool CheckRegexOps(CompareOp op, const Comparator& c, std::string* error) {
  if ((c.kind() == Comparator::Kind::kRegexString || c.kind() == Comparator::Kind::kSubstring) &&
      op != CompareOp::kEqual && op != CompareOp::kNotEqual) {
    *error = "A regexstring comparator and substring comparator can only be used with EQUAL and "
             "NOT_EQUAL";
    return false;
  }
  return true;
}

bool ArgCount(const std::vector<std::string>& args, std::initializer_list<size_t> allowed,
              std::string* error) {
  for (size_t n : allowed) {
    if (args.size() == n) return true;
  }
  *error = "Expected " + std::to_string(*allowed.begin()) + " arguments but got: " +
           std::to_string(args.size());
  return false;
}

std::string Quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

const char* Bool(bool b) { return b ? "true" : "false"; }

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

// ---------------------------------------------------------------- simple filters

class KeyOnlyFilter : public Filter {
 public:
  explicit KeyOnlyFilter(bool len_as_val) : len_as_val_(len_as_val) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<KeyOnlyFilter>(len_as_val_);
  }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView&) override { return FilterCode::kInclude; }
  void TransformCell(Cell* cell) const override {
    if (!len_as_val_) {
      cell->value.clear();
      return;
    }
    const uint32_t n = static_cast<uint32_t>(cell->value.size());
    cell->value = std::string{static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                              static_cast<char>(n >> 8), static_cast<char>(n)};
  }
  std::string ToString() const override {
    return std::string("KeyOnlyFilter(") + Bool(len_as_val_) + ")";
  }

 private:
  const bool len_as_val_;
};

class FirstKeyOnlyFilter : public Filter {
 public:
  std::unique_ptr<Filter> Clone() const override { return std::make_unique<FirstKeyOnlyFilter>(); }
  void Reset() override { found_ = false; }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView&) override {
    if (found_) return FilterCode::kNextRow;
    found_ = true;
    return FilterCode::kInclude;
  }
  std::string ToString() const override { return "FirstKeyOnlyFilter()"; }

 private:
  bool found_ = false;
};

class PrefixFilter : public Filter {
 public:
  explicit PrefixFilter(std::string prefix) : prefix_(std::move(prefix)) {}
  std::unique_ptr<Filter> Clone() const override {
    auto f = std::make_unique<PrefixFilter>(prefix_);
    f->SetReversed(reversed_);
    return f;
  }
  void Reset() override { filter_row_ = true; }
  bool FilterAllRemaining() const override { return passed_prefix_; }
  bool FilterRowKey(std::string_view row) override {
    if (FilterAllRemaining()) return true;
    if (row.size() < prefix_.size()) return true;  // as HBase: no "passed" bookkeeping here
    const int cmp = row.substr(0, prefix_.size()).compare(prefix_);
    if ((!reversed_ && cmp > 0) || (reversed_ && cmp < 0)) passed_prefix_ = true;
    filter_row_ = cmp != 0;
    return filter_row_;
  }
  FilterCode FilterCell(const CellView&) override {
    return filter_row_ ? FilterCode::kNextRow : FilterCode::kInclude;
  }
  bool FilterRow() override { return filter_row_; }
  std::string ToString() const override { return "PrefixFilter(" + Quote(prefix_) + ")"; }

 private:
  const std::string prefix_;
  bool passed_prefix_ = false;
  bool filter_row_ = true;
};

class ColumnPrefixFilter : public Filter {
 public:
  explicit ColumnPrefixFilter(std::string prefix) : prefix_(std::move(prefix)) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<ColumnPrefixFilter>(prefix_);
  }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    const std::string_view q = c.qualifier;
    if (q.size() < prefix_.size()) {
      return q.compare(std::string_view(prefix_).substr(0, q.size())) <= 0
                 ? FilterCode::kSeekNextUsingHint
                 : FilterCode::kNextRow;
    }
    const int cmp = q.substr(0, prefix_.size()).compare(prefix_);
    if (cmp < 0) return FilterCode::kSeekNextUsingHint;
    if (cmp > 0) return FilterCode::kNextRow;
    return FilterCode::kInclude;
  }
  bool NextCellHint(const CellView& c, std::string* family, std::string* qualifier) const override {
    family->assign(c.family.data(), c.family.size());
    *qualifier = prefix_;
    return true;
  }
  std::string ToString() const override { return "ColumnPrefixFilter(" + Quote(prefix_) + ")"; }

 private:
  const std::string prefix_;
};

class MultipleColumnPrefixFilter : public Filter {
 public:
  explicit MultipleColumnPrefixFilter(std::set<std::string> prefixes)
      : prefixes_(std::move(prefixes)) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<MultipleColumnPrefixFilter>(prefixes_);
  }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    if (prefixes_.empty()) return FilterCode::kInclude;
    const std::string q(c.qualifier);
    // The largest prefix <= qualifier decides (HBase's headSet(qualifier, true).last()).
    auto it = prefixes_.upper_bound(q);
    if (it == prefixes_.begin()) {
      hint_ = *prefixes_.begin();
      return FilterCode::kSeekNextUsingHint;
    }
    auto largest = std::prev(it);
    if (StartsWith(q, *largest)) return FilterCode::kInclude;
    if (it == prefixes_.end()) return FilterCode::kNextRow;
    hint_ = *it;
    return FilterCode::kSeekNextUsingHint;
  }
  bool NextCellHint(const CellView& c, std::string* family, std::string* qualifier) const override {
    family->assign(c.family.data(), c.family.size());
    *qualifier = hint_;
    return true;
  }
  std::string ToString() const override {
    std::string out = "MultipleColumnPrefixFilter(";
    bool first = true;
    for (const auto& p : prefixes_) {
      if (!first) out += ", ";
      first = false;
      out += Quote(p);
    }
    return out + ")";
  }

 private:
  const std::set<std::string> prefixes_;
  std::string hint_;
};

class ColumnCountGetFilter : public Filter {
 public:
  explicit ColumnCountGetFilter(int32_t limit) : limit_(limit) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<ColumnCountGetFilter>(limit_);
  }
  void Reset() override { count_ = 0; }
  bool FilterAllRemaining() const override { return count_ > limit_; }
  FilterCode FilterCell(const CellView&) override {
    ++count_;
    return FilterAllRemaining() ? FilterCode::kNextCol : FilterCode::kIncludeAndNextCol;
  }
  std::string ToString() const override {
    return "ColumnCountGetFilter(" + std::to_string(limit_) + ")";
  }

 private:
  const int32_t limit_;
  int64_t count_ = 0;
};

class PageFilter : public Filter {
 public:
  explicit PageFilter(int64_t page_size) : page_size_(page_size) {}
  std::unique_ptr<Filter> Clone() const override { return std::make_unique<PageFilter>(page_size_); }
  bool FilterAllRemaining() const override { return rows_accepted_ >= page_size_; }
  FilterCode FilterCell(const CellView&) override { return FilterCode::kInclude; }
  bool FilterRow() override {
    ++rows_accepted_;
    return rows_accepted_ > page_size_;
  }
  bool HasFilterRow() const override { return true; }
  std::string ToString() const override { return "PageFilter(" + std::to_string(page_size_) + ")"; }

 private:
  const int64_t page_size_;
  int64_t rows_accepted_ = 0;  // per scan: never reset between rows
};

class ColumnPaginationFilter : public Filter {
 public:
  ColumnPaginationFilter(int32_t limit, int32_t offset) : limit_(limit), offset_(offset) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<ColumnPaginationFilter>(limit_, offset_);
  }
  void Reset() override { count_ = 0; }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView&) override {
    if (count_ >= static_cast<int64_t>(offset_) + limit_) return FilterCode::kNextRow;
    const FilterCode code = count_ < offset_ ? FilterCode::kNextCol : FilterCode::kIncludeAndNextCol;
    ++count_;
    return code;
  }
  std::string ToString() const override {
    return "ColumnPaginationFilter(" + std::to_string(limit_) + ", " + std::to_string(offset_) + ")";
  }

 private:
  const int32_t limit_, offset_;
  int64_t count_ = 0;
};

class InclusiveStopFilter : public Filter {
 public:
  explicit InclusiveStopFilter(std::string stop) : stop_(std::move(stop)) {}
  std::unique_ptr<Filter> Clone() const override {
    auto f = std::make_unique<InclusiveStopFilter>(stop_);
    f->SetReversed(reversed_);
    return f;
  }
  bool FilterAllRemaining() const override { return done_; }
  bool FilterRowKey(std::string_view row) override {
    if (FilterAllRemaining()) return true;
    const int cmp = row.compare(stop_);
    done_ = reversed_ ? cmp < 0 : cmp > 0;
    return done_;
  }
  FilterCode FilterCell(const CellView&) override {
    return done_ ? FilterCode::kNextRow : FilterCode::kInclude;
  }
  std::string ToString() const override { return "InclusiveStopFilter(" + Quote(stop_) + ")"; }

 private:
  const std::string stop_;
  bool done_ = false;
};

class TimestampsFilter : public Filter {
 public:
  explicit TimestampsFilter(std::vector<int64_t> timestamps)
      : timestamps_(std::move(timestamps)), set_(timestamps_.begin(), timestamps_.end()) {
    min_ = INT64_MAX;
    for (int64_t t : timestamps_) min_ = std::min(min_, t);
  }
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<TimestampsFilter>(timestamps_);
  }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    if (set_.count(c.timestamp) > 0) return FilterCode::kInclude;
    if (c.timestamp < min_) return FilterCode::kNextCol;  // older versions cannot match
    return FilterCode::kSkip;  // the parser's TimestampsFilter(list) never hints
  }
  std::string ToString() const override {
    std::string out = "TimestampsFilter(";
    for (size_t i = 0; i < timestamps_.size(); ++i) {
      if (i > 0) out += ", ";
      out += std::to_string(timestamps_[i]);
    }
    return out + ")";
  }

 private:
  const std::vector<int64_t> timestamps_;
  const std::unordered_set<int64_t> set_;
  int64_t min_;
};

// ---------------------------------------------------------------- compare filters

std::string CompareArgs(CompareOp op, const Comparator& c) {
  return std::string(CompareOpName(op)) + ", " + Quote(c.ToString());
}

class RowFilter : public Filter {
 public:
  RowFilter(CompareOp op, std::shared_ptr<const Comparator> c) : op_(op), cmp_(std::move(c)) {}
  std::unique_ptr<Filter> Clone() const override { return std::make_unique<RowFilter>(op_, cmp_); }
  void Reset() override { filter_out_row_ = false; }
  bool FilterRowKey(std::string_view row) override {
    if (CompareFiltersOut(op_, cmp_->CompareTo(row))) filter_out_row_ = true;
    return filter_out_row_;
  }
  FilterCode FilterCell(const CellView&) override {
    return filter_out_row_ ? FilterCode::kNextRow : FilterCode::kInclude;
  }
  bool FilterRow() override { return filter_out_row_; }
  std::string ToString() const override { return "RowFilter(" + CompareArgs(op_, *cmp_) + ")"; }

 private:
  const CompareOp op_;
  const std::shared_ptr<const Comparator> cmp_;
  bool filter_out_row_ = false;
};

class FamilyFilter : public Filter {
 public:
  FamilyFilter(CompareOp op, std::shared_ptr<const Comparator> c) : op_(op), cmp_(std::move(c)) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<FamilyFilter>(op_, cmp_);
  }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    // A failing family skips the rest of that family in this row (HBase seeks its store).
    if (!c.family.empty() && CompareFiltersOut(op_, cmp_->CompareTo(c.family))) {
      return FilterCode::kNextRow;
    }
    return FilterCode::kInclude;
  }
  std::string ToString() const override { return "FamilyFilter(" + CompareArgs(op_, *cmp_) + ")"; }

 private:
  const CompareOp op_;
  const std::shared_ptr<const Comparator> cmp_;
};

class QualifierFilter : public Filter {
 public:
  QualifierFilter(CompareOp op, std::shared_ptr<const Comparator> c)
      : op_(op), cmp_(std::move(c)) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<QualifierFilter>(op_, cmp_);
  }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    // HBase 2.6 compares the empty qualifier like any other (1.x let it pass).
    if (CompareFiltersOut(op_, cmp_->CompareTo(c.qualifier))) {
      return FilterCode::kSkip;
    }
    return FilterCode::kInclude;
  }
  std::string ToString() const override {
    return "QualifierFilter(" + CompareArgs(op_, *cmp_) + ")";
  }

 private:
  const CompareOp op_;
  const std::shared_ptr<const Comparator> cmp_;
};

class ValueFilter : public Filter {
 public:
  ValueFilter(CompareOp op, std::shared_ptr<const Comparator> c) : op_(op), cmp_(std::move(c)) {}
  std::unique_ptr<Filter> Clone() const override { return std::make_unique<ValueFilter>(op_, cmp_); }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    return CompareFiltersOut(op_, cmp_->CompareTo(c.value)) ? FilterCode::kSkip
                                                            : FilterCode::kInclude;
  }
  std::string ToString() const override { return "ValueFilter(" + CompareArgs(op_, *cmp_) + ")"; }

 private:
  const CompareOp op_;
  const std::shared_ptr<const Comparator> cmp_;
};

class ColumnRangeFilter : public Filter {
 public:
  // An empty bound is no bound.
  ColumnRangeFilter(std::string min, bool min_inclusive, std::string max, bool max_inclusive)
      : min_(std::move(min)), min_inclusive_(min_inclusive), max_(std::move(max)),
        max_inclusive_(max_inclusive) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<ColumnRangeFilter>(min_, min_inclusive_, max_, max_inclusive_);
  }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    int cmp_min = 1;
    if (!min_.empty()) cmp_min = c.qualifier.compare(min_);
    if (cmp_min < 0) return FilterCode::kSeekNextUsingHint;
    if (!min_inclusive_ && cmp_min == 0) return FilterCode::kNextCol;
    if (max_.empty()) return FilterCode::kInclude;
    const int cmp_max = c.qualifier.compare(max_);
    if ((max_inclusive_ && cmp_max <= 0) || (!max_inclusive_ && cmp_max < 0)) {
      return FilterCode::kInclude;
    }
    return FilterCode::kNextRow;
  }
  bool NextCellHint(const CellView& c, std::string* family, std::string* qualifier) const override {
    family->assign(c.family.data(), c.family.size());
    *qualifier = min_;
    return true;
  }
  std::string ToString() const override {
    return "ColumnRangeFilter(" + Quote(min_) + ", " + Bool(min_inclusive_) + ", " + Quote(max_) +
           ", " + Bool(max_inclusive_) + ")";
  }

 private:
  const std::string min_;
  const bool min_inclusive_;
  const std::string max_;
  const bool max_inclusive_;
};

struct ColumnTest {
  std::string family, qualifier;
  CompareOp op = CompareOp::kEqual;
  std::shared_ptr<const Comparator> cmp;
  bool Matches(const CellView& c) const { return c.family == family && c.qualifier == qualifier; }
  // True when the value fails the test.
  bool ValueFails(std::string_view value) const {
    return CompareFiltersOut(op, cmp->CompareTo(value));
  }
  std::string Args() const {
    return Quote(family) + ", " + Quote(qualifier) + ", " + CompareArgs(op, *cmp);
  }
};

// SingleColumnValueFilter and, with `exclude`, SingleColumnValueExcludeFilter.
class SingleColumnValueFilter : public Filter {
 public:
  SingleColumnValueFilter(ColumnTest test, bool filter_if_missing, bool latest_version_only,
                          bool exclude)
      : test_(std::move(test)), filter_if_missing_(filter_if_missing),
        latest_version_only_(latest_version_only), exclude_(exclude) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<SingleColumnValueFilter>(test_, filter_if_missing_,
                                                     latest_version_only_, exclude_);
  }
  void Reset() override {
    found_column_ = false;
    matched_column_ = false;
  }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    if (matched_column_) return FilterCode::kInclude;
    if (latest_version_only_ && found_column_) return FilterCode::kNextRow;
    if (!test_.Matches(c)) return FilterCode::kInclude;
    found_column_ = true;
    if (test_.ValueFails(c.value)) {
      return latest_version_only_ ? FilterCode::kNextRow : FilterCode::kInclude;
    }
    matched_column_ = true;
    return FilterCode::kInclude;
  }
  void FilterRowCells(std::vector<Cell>* cells) override {
    if (!exclude_) return;
    cells->erase(std::remove_if(cells->begin(), cells->end(),
                                [&](const Cell& c) {
                                  return c.family == test_.family && c.qualifier == test_.qualifier;
                                }),
                 cells->end());
  }
  bool FilterRow() override { return found_column_ ? !matched_column_ : filter_if_missing_; }
  bool HasFilterRow() const override { return true; }
  // With filterIfMissing, only the tested column's family decides whether a row passes.
  bool IsFamilyEssential(std::string_view family) const override {
    return !filter_if_missing_ || family == test_.family;
  }
  std::string ToString() const override {
    return std::string(exclude_ ? "SingleColumnValueExcludeFilter(" : "SingleColumnValueFilter(") +
           test_.Args() + ", " + Bool(filter_if_missing_) + ", " + Bool(latest_version_only_) + ")";
  }

 private:
  const ColumnTest test_;
  const bool filter_if_missing_;
  const bool latest_version_only_;
  const bool exclude_;
  bool found_column_ = false;
  bool matched_column_ = false;
};

class DependentColumnFilter : public Filter {
 public:
  // `test.cmp` may be null: no value condition.
  DependentColumnFilter(ColumnTest test, bool drop) : test_(std::move(test)), drop_(drop) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<DependentColumnFilter>(test_, drop_);
  }
  void Reset() override { stamps_.clear(); }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    if (!test_.Matches(c)) return FilterCode::kInclude;  // decided in FilterRowCells
    if (test_.cmp != nullptr && test_.ValueFails(c.value)) return FilterCode::kSkip;
    stamps_.insert(c.timestamp);
    return drop_ ? FilterCode::kSkip : FilterCode::kInclude;
  }
  void FilterRowCells(std::vector<Cell>* cells) override {
    cells->erase(std::remove_if(cells->begin(), cells->end(),
                                [&](const Cell& c) { return stamps_.count(c.timestamp) == 0; }),
                 cells->end());
  }
  bool HasFilterRow() const override { return true; }
  std::string ToString() const override {
    std::string out = "DependentColumnFilter(" + Quote(test_.family) + ", " +
                      Quote(test_.qualifier) + ", " + Bool(drop_);
    if (test_.cmp != nullptr) out += ", " + CompareArgs(test_.op, *test_.cmp);
    return out + ")";
  }

 private:
  const ColumnTest test_;
  const bool drop_;
  std::unordered_set<int64_t> stamps_;
};

class ColumnValueFilter : public Filter {
 public:
  explicit ColumnValueFilter(ColumnTest test) : test_(std::move(test)) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<ColumnValueFilter>(test_);
  }
  void Reset() override { column_found_ = false; }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    if (!test_.Matches(c)) return column_found_ ? FilterCode::kNextRow : FilterCode::kNextCol;
    column_found_ = true;
    return test_.ValueFails(c.value) ? FilterCode::kSkip : FilterCode::kInclude;
  }
  std::string ToString() const override { return "ColumnValueFilter(" + test_.Args() + ")"; }

 private:
  const ColumnTest test_;
  bool column_found_ = false;
};

// ---------------------------------------------------------------- factories

using Args = std::vector<std::string>;
using Factory = bool (*)(const Args&, std::unique_ptr<Filter>*, std::string*);

bool MakeCompareFilterArgs(const Args& a, CompareOp* op, std::shared_ptr<const Comparator>* cmp,
                           std::string* e) {
  return ArgCount(a, {2}, e) && ToOp(a[0], op, e) && ToComparator(a[1], cmp, e) &&
         CheckRegexOps(*op, **cmp, e);
}

template <typename T>
bool MakeCompareFilter(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  CompareOp op;
  std::shared_ptr<const Comparator> cmp;
  if (!MakeCompareFilterArgs(a, &op, &cmp, e)) return false;
  *out = std::make_unique<T>(op, std::move(cmp));
  return true;
}

bool MakeColumnTest(const Args& a, ColumnTest* t, std::string* e, bool check_ops) {
  return Unquote(a[0], &t->family, e) && Unquote(a[1], &t->qualifier, e) && ToOp(a[2], &t->op, e) &&
         ToComparator(a[3], &t->cmp, e) && (!check_ops || CheckRegexOps(t->op, *t->cmp, e));
}

bool MakeScvf(const Args& a, std::unique_ptr<Filter>* out, std::string* e, bool exclude) {
  ColumnTest t;
  if (!ArgCount(a, {4, 6}, e) || !MakeColumnTest(a, &t, e, true)) return false;
  bool if_missing = false, latest_only = true;
  if (a.size() == 6 && !(ToBool(a[4], &if_missing, e) && ToBool(a[5], &latest_only, e))) {
    return false;
  }
  *out = std::make_unique<SingleColumnValueFilter>(std::move(t), if_missing, latest_only, exclude);
  return true;
}

bool MakeKeyOnly(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  bool len_as_val = false;
  if (!ArgCount(a, {0, 1}, e) || (a.size() == 1 && !ToBool(a[0], &len_as_val, e))) return false;
  *out = std::make_unique<KeyOnlyFilter>(len_as_val);
  return true;
}

bool MakeFirstKeyOnly(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  if (!ArgCount(a, {0}, e)) return false;
  *out = std::make_unique<FirstKeyOnlyFilter>();
  return true;
}

template <typename T>
bool MakeOneQuoted(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  std::string arg;
  if (!ArgCount(a, {1}, e) || !Unquote(a[0], &arg, e)) return false;
  *out = std::make_unique<T>(std::move(arg));
  return true;
}

bool MakeMultiplePrefix(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  std::set<std::string> prefixes;
  for (const std::string& arg : a) {
    std::string p;
    if (!Unquote(arg, &p, e)) return false;
    if (!prefixes.insert(std::move(p)).second) {
      *e = "prefixes must be distinct";
      return false;
    }
  }
  *out = std::make_unique<MultipleColumnPrefixFilter>(std::move(prefixes));
  return true;
}

bool MakeColumnCountGet(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  int32_t limit = 0;
  if (!ArgCount(a, {1}, e) || !ToInt(a[0], &limit, e)) return false;
  if (limit < 0) {
    *e = "limit be positive " + std::to_string(limit);
    return false;
  }
  *out = std::make_unique<ColumnCountGetFilter>(limit);
  return true;
}

bool MakeSingleColumnValue(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  return MakeScvf(a, out, e, false);
}

bool MakeSingleColumnValueExclude(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  return MakeScvf(a, out, e, true);
}

bool MakePageFilter(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  int64_t size = 0;
  if (!ArgCount(a, {1}, e) || !ToLong(a[0], &size, e)) return false;
  if (size < 0) {
    *e = "must be positive " + std::to_string(size);
    return false;
  }
  *out = std::make_unique<PageFilter>(size);
  return true;
}

bool MakeColumnPagination(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  int32_t limit = 0, offset = 0;
  if (!ArgCount(a, {2}, e) || !ToInt(a[0], &limit, e) || !ToInt(a[1], &offset, e)) return false;
  if (limit < 0 || offset < 0) {
    *e = "limit and offset must be positive";
    return false;
  }
  *out = std::make_unique<ColumnPaginationFilter>(limit, offset);
  return true;
}

bool MakeInclusiveStop(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  std::string stop;
  if (!ArgCount(a, {1}, e) || !Unquote(a[0], &stop, e)) return false;
  *out = std::make_unique<InclusiveStopFilter>(std::move(stop));
  return true;
}

bool MakeTimestamps(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  std::vector<int64_t> ts;
  for (const std::string& arg : a) {
    int64_t t = 0;
    if (!ToLong(arg, &t, e)) return false;
    if (t < 0) {
      *e = "must be positive " + std::to_string(t);
      return false;
    }
    ts.push_back(t);
  }
  *out = std::make_unique<TimestampsFilter>(std::move(ts));
  return true;
}

bool MakeColumnRange(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  std::string min, max;
  bool min_inc = false, max_inc = false;
  if (!ArgCount(a, {4}, e) || !Unquote(a[0], &min, e) || !ToBool(a[1], &min_inc, e) ||
      !Unquote(a[2], &max, e) || !ToBool(a[3], &max_inc, e)) {
    return false;
  }
  *out = std::make_unique<ColumnRangeFilter>(std::move(min), min_inc, std::move(max), max_inc);
  return true;
}

bool MakeDependent(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  ColumnTest t;
  bool drop = false;
  if (!ArgCount(a, {2, 3, 5}, e) || !Unquote(a[0], &t.family, e) ||
      !Unquote(a[1], &t.qualifier, e)) {
    return false;
  }
  if (a.size() >= 3 && !ToBool(a[2], &drop, e)) return false;
  // The 5-argument form does not restrict regexstring/substring to = and != (HBase does not).
  if (a.size() == 5 && !(ToOp(a[3], &t.op, e) && ToComparator(a[4], &t.cmp, e))) return false;
  *out = std::make_unique<DependentColumnFilter>(std::move(t), drop);
  return true;
}

bool MakeColumnValue(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  ColumnTest t;
  if (!ArgCount(a, {4}, e) || !MakeColumnTest(a, &t, e, true)) return false;
  *out = std::make_unique<ColumnValueFilter>(std::move(t));
  return true;
}

// HBase's registration order (ParseFilter's static block).
const std::vector<std::pair<std::string, Factory>>& Registry() {
  static const auto* registry = new std::vector<std::pair<std::string, Factory>>{
      {"KeyOnlyFilter", MakeKeyOnly},
      {"FirstKeyOnlyFilter", MakeFirstKeyOnly},
      {"PrefixFilter", MakeOneQuoted<PrefixFilter>},
      {"ColumnPrefixFilter", MakeOneQuoted<ColumnPrefixFilter>},
      {"MultipleColumnPrefixFilter", MakeMultiplePrefix},
      {"ColumnCountGetFilter", MakeColumnCountGet},
      {"PageFilter", MakePageFilter},
      {"ColumnPaginationFilter", MakeColumnPagination},
      {"InclusiveStopFilter", MakeInclusiveStop},
      {"TimestampsFilter", MakeTimestamps},
      {"RowFilter", MakeCompareFilter<RowFilter>},
      {"FamilyFilter", MakeCompareFilter<FamilyFilter>},
      {"QualifierFilter", MakeCompareFilter<QualifierFilter>},
      {"ValueFilter", MakeCompareFilter<ValueFilter>},
      {"ColumnRangeFilter", MakeColumnRange},
      {"SingleColumnValueFilter", MakeSingleColumnValue},
      {"SingleColumnValueExcludeFilter", MakeSingleColumnValueExclude},
      {"DependentColumnFilter", MakeDependent},
      {"ColumnValueFilter", MakeColumnValue},
  };
  return *registry;
}

Factory FindFactory(std::string_view name) {
  for (const auto& [n, f] : Registry()) {
    if (n == name) return f;
  }
  return nullptr;
}

}  // namespace

bool IsRegisteredFilter(std::string_view name) { return FindFactory(name) != nullptr; }

const std::vector<std::string>& RegisteredFilterNames() {
  static const auto* names = [] {
    auto* v = new std::vector<std::string>();
    for (const auto& entry : Registry()) v->push_back(entry.first);
    return v;
  }();
  return *names;
}

bool CreateFilterFromArguments(std::string_view name, const std::vector<std::string>& args,
                               std::unique_ptr<Filter>* out, std::string* error) {
  const Factory factory = FindFactory(name);
  if (factory == nullptr) {
    *error = "Filter Name " + std::string(name) + " not supported";
    return false;
  }
  return factory(args, out, error);
}

}  // namespace hbemu::storage
