#include <algorithm>
#include <set>
#include <unordered_set>

#include "storage/filter_args.h"

// The filters that look at keys, columns, counts and timestamps only.
namespace hbemu::storage {
namespace {

using filter_args::Args;
using filter_args::ArgCount;
using filter_args::Bool;
using filter_args::Quote;
using filter_args::StartsWith;
using filter_args::ToBool;
using filter_args::ToInt;
using filter_args::ToLong;
using filter_args::Unquote;

class KeyOnlyFilter : public Filter {
 public:
  explicit KeyOnlyFilter(bool len_as_val) : len_as_val_(len_as_val) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<KeyOnlyFilter>(len_as_val_);
  }
  void Restart() override {}
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
  void Restart() override { found_ = false; }
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
  void Restart() override {
    passed_prefix_ = false;
    filter_row_ = true;
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
  size_t HeldBytes() const override {
    return AllocationBytes(sizeof(*this)) + StringHeapBytes(prefix_);
  }

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
  void Restart() override {}
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
  size_t HeldBytes() const override {
    return AllocationBytes(sizeof(*this)) + StringHeapBytes(prefix_);
  }

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
  void Restart() override { hint_.clear(); }
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

  size_t HeldBytes() const override {
    size_t bytes = AllocationBytes(sizeof(*this)) + StringHeapBytes(hint_);
    for (const std::string& p : prefixes_) bytes += kStringSetNodeBytes + StringHeapBytes(p);
    return bytes;
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
  void Restart() override { count_ = 0; }
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
  void Restart() override { rows_accepted_ = 0; }
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
  int64_t rows_accepted_ = 0;  // per region scanner: never reset between rows
};

class ColumnPaginationFilter : public Filter {
 public:
  ColumnPaginationFilter(int32_t limit, int32_t offset) : limit_(limit), offset_(offset) {}
  std::unique_ptr<Filter> Clone() const override {
    return std::make_unique<ColumnPaginationFilter>(limit_, offset_);
  }
  void Restart() override { count_ = 0; }
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
  void Restart() override { done_ = false; }
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
  size_t HeldBytes() const override {
    return AllocationBytes(sizeof(*this)) + StringHeapBytes(stop_);
  }

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
  void Restart() override {}
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

  size_t HeldBytes() const override {
    // The vector, and the set's nodes (a 16-byte node each) and bucket array.
    return AllocationBytes(sizeof(*this)) + AllocationBytes(timestamps_.capacity() * 8) +
           set_.size() * AllocationBytes(16) + AllocationBytes(set_.bucket_count() * 8);
  }

 private:
  const std::vector<int64_t> timestamps_;
  const std::unordered_set<int64_t> set_;
  int64_t min_;
};

// ---------------------------------------------------------------- factories

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

}  // namespace

void filter_args::RegisterSimpleFilters(filter_args::Registry* registry) {
  registry->insert(registry->end(), {
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
  });
}

}  // namespace hbemu::storage
