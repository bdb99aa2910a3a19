#include <algorithm>
#include <set>
#include <unordered_set>

#include "storage/filter_args.h"

// The filters that compare a key, column or value with a comparator.
namespace hbemu::storage {
namespace {

using filter_args::Args;
using filter_args::ArgCount;
using filter_args::Bool;
using filter_args::CheckRegexOps;
using filter_args::Quote;
using filter_args::ToBool;
using filter_args::ToComparator;
using filter_args::ToOp;
using filter_args::Unquote;

std::string CompareArgs(CompareOp op, const Comparator& c) {
  return std::string(CompareOpName(op)) + ", " + Quote(c.ToString());
}

class RowFilter : public Filter {
 public:
  RowFilter(CompareOp op, std::shared_ptr<const Comparator> c) : op_(op), cmp_(std::move(c)) {}
  std::unique_ptr<Filter> Clone() const override { return std::make_unique<RowFilter>(op_, cmp_); }
  void Restart() override { filter_out_row_ = false; }
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

  size_t HeldBytes() const override { return AllocationBytes(sizeof(*this)) + cmp_->HeldBytes(); }

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
  void Restart() override {}
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    // A failing family skips the rest of that family in this row (HBase seeks its store).
    if (!c.family.empty() && CompareFiltersOut(op_, cmp_->CompareTo(c.family))) {
      return FilterCode::kNextRow;
    }
    return FilterCode::kInclude;
  }
  std::string ToString() const override { return "FamilyFilter(" + CompareArgs(op_, *cmp_) + ")"; }

  size_t HeldBytes() const override { return AllocationBytes(sizeof(*this)) + cmp_->HeldBytes(); }

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
  void Restart() override {}
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

  size_t HeldBytes() const override { return AllocationBytes(sizeof(*this)) + cmp_->HeldBytes(); }

 private:
  const CompareOp op_;
  const std::shared_ptr<const Comparator> cmp_;
};

class ValueFilter : public Filter {
 public:
  ValueFilter(CompareOp op, std::shared_ptr<const Comparator> c) : op_(op), cmp_(std::move(c)) {}
  std::unique_ptr<Filter> Clone() const override { return std::make_unique<ValueFilter>(op_, cmp_); }
  void Restart() override {}
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    return CompareFiltersOut(op_, cmp_->CompareTo(c.value)) ? FilterCode::kSkip
                                                            : FilterCode::kInclude;
  }
  std::string ToString() const override { return "ValueFilter(" + CompareArgs(op_, *cmp_) + ")"; }

  size_t HeldBytes() const override { return AllocationBytes(sizeof(*this)) + cmp_->HeldBytes(); }

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
  void Restart() override {}
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

  size_t HeldBytes() const override {
    return AllocationBytes(sizeof(*this)) + StringHeapBytes(min_) + StringHeapBytes(max_);
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
  // Beyond the filter object holding it (a DependentColumnFilter's test may have no comparator).
  size_t HeldBytes() const {
    return StringHeapBytes(family) + StringHeapBytes(qualifier) +
           (cmp != nullptr ? cmp->HeldBytes() : 0);
  }
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
  void Restart() override { Reset(); }
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

  size_t HeldBytes() const override { return AllocationBytes(sizeof(*this)) + test_.HeldBytes(); }

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
  void Restart() override { stamps_.clear(); }
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

  size_t HeldBytes() const override {
    return AllocationBytes(sizeof(*this)) + test_.HeldBytes() +
           stamps_.size() * AllocationBytes(16) + AllocationBytes(stamps_.bucket_count() * 8);
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
  void Restart() override { column_found_ = false; }
  void Reset() override { column_found_ = false; }
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& c) override {
    if (!test_.Matches(c)) return column_found_ ? FilterCode::kNextRow : FilterCode::kNextCol;
    column_found_ = true;
    return test_.ValueFails(c.value) ? FilterCode::kSkip : FilterCode::kInclude;
  }
  // HBase's ColumnValueFilter needs only the tested family to decide: the others are loaded
  // on demand (which a reversed scan refuses).
  bool IsFamilyEssential(std::string_view family) const override {
    return family == test_.family;
  }
  std::string ToString() const override { return "ColumnValueFilter(" + test_.Args() + ")"; }

  size_t HeldBytes() const override { return AllocationBytes(sizeof(*this)) + test_.HeldBytes(); }

 private:
  const ColumnTest test_;
  bool column_found_ = false;
};

// ---------------------------------------------------------------- factories

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

bool MakeSingleColumnValue(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  return MakeScvf(a, out, e, false);
}

bool MakeSingleColumnValueExclude(const Args& a, std::unique_ptr<Filter>* out, std::string* e) {
  return MakeScvf(a, out, e, true);
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

}  // namespace

void filter_args::RegisterCompareFilters(filter_args::Registry* registry) {
  registry->insert(registry->end(), {
      {"RowFilter", MakeCompareFilter<RowFilter>},
      {"FamilyFilter", MakeCompareFilter<FamilyFilter>},
      {"QualifierFilter", MakeCompareFilter<QualifierFilter>},
      {"ValueFilter", MakeCompareFilter<ValueFilter>},
      {"ColumnRangeFilter", MakeColumnRange},
      {"SingleColumnValueFilter", MakeSingleColumnValue},
      {"SingleColumnValueExcludeFilter", MakeSingleColumnValueExclude},
      {"DependentColumnFilter", MakeDependent},
      {"ColumnValueFilter", MakeColumnValue},
  });
}

}  // namespace hbemu::storage
