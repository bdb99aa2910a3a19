#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/cell.h"
#include "storage/memory_size.h"

namespace hbemu::storage {

// A cell as a filter sees it while the row is being read: views into the storage iterator's
// current entry, valid only during the call.
struct CellView {
  std::string_view row;
  std::string_view family;
  std::string_view qualifier;
  int64_t timestamp = 0;
  std::string_view value;
};

// HBase's Filter.ReturnCode: what to do with the cell and where the read goes next.
enum class FilterCode {
  kInclude,
  kIncludeAndNextCol,     // include, then the rest of this column is skipped
  kIncludeAndSeekNextRow, // include, then the rest of this family in this row is skipped
  kSkip,                  // not this cell
  kNextCol,               // not this cell nor the rest of its column
  kNextRow,               // not this cell nor the rest of its family in this row (HBase seeks
                          // one store, i.e. one family, to the next row)
  kSeekNextUsingHint,     // not this cell; skip to NextCellHint()
};

// HBase's Filter contract (org.apache.hadoop.hbase.filter.Filter), driven by the read path in
// HBase's order for every row (docs/hbase-semantics.md#the-read-pipeline, #the-filter-language):
//   FilterAllRemaining? -> FilterRowKey -> FilterCell per cell that survives deletes, time
//   range, column selection and version checks (TransformCell on included ones) ->
//   FilterRowCells / FilterRow -> Reset.
//
// A parsed filter is an immutable prototype shared by every read; each scan or get calls
// Clone() for its own instance with fresh state (PageFilter counts rows per scan). Instances
// are not thread-safe.
//
// Lists, SKIP and WHILE (the composites) run every operation as a walk of their tree
// (storage/filter_walks.h): by recursion only up to a constant height, by a stack of frames on
// the heap beyond it, and destruction takes subtrees apart in a loop, so a tree as deep as the
// filter_depth limit allows (or any raised value) costs heap, not thread stack.
class Filter {
 public:
  virtual ~Filter() = default;
  // A copy of the configuration with all state as new (and the same reversed flag).
  virtual std::unique_ptr<Filter> Clone() const = 0;
  // Returns every piece of state to what a fresh Clone() has, keeping the reversed flag. HBase
  // gives each region scanner its own copy of the filter; a scanner entering the next region
  // restarts its one instance instead of cloning again.
  virtual void Restart() = 0;

  // Called between rows.
  virtual void Reset() {}
  // True once nothing more can pass: the scan ends. O(1): lists and WHILE keep their
  // sub-filters' answers (a child's answer changes only in a call its parent makes).
  virtual bool FilterAllRemaining() const { return false; }
  // True to drop the whole row, before its cells are read.
  virtual bool FilterRowKey(std::string_view /*row*/) { return FilterAllRemaining(); }
  virtual FilterCode FilterCell(const CellView& cell) = 0;
  // May rewrite an included cell (KeyOnlyFilter).
  virtual void TransformCell(Cell*) const {}
  // Row-level hooks; only consulted when HasFilterRow() (FilterRow also for filters without
  // it, as HBase's RegionScanner does).
  virtual void FilterRowCells(std::vector<Cell>*) {}
  virtual bool FilterRow() { return false; }
  virtual bool HasFilterRow() const { return false; }
  // After kSeekNextUsingHint: the first (family, qualifier) worth reading in this row.
  virtual bool NextCellHint(const CellView&, std::string* /*family*/,
                            std::string* /*qualifier*/) const {
    return false;
  }
  // HBase's isFamilyEssential: false when the filter can decide a row without reading this
  // family (the region server then loads it on demand, which reversed scans refuse).
  virtual bool IsFamilyEssential(std::string_view /*family*/) const { return true; }
  // Reversed scans tell row-key filters which way "past the end" is.
  virtual void SetReversed(bool reversed) { reversed_ = reversed; }
  // A canonical description, e.g. "AND(PrefixFilter('a'), PageFilter(2))" (tests, logs).
  virtual std::string ToString() const = 0;
  // Memory a leaf holds, for the memory budgets (storage/memory_size.h): its object and what it
  // owns (strings, its comparator). The default fits every leaf object without heap of its own.
  virtual size_t HeldBytes() const { return kFilterNodeBytes; }
  // The whole tree's: every leaf's HeldBytes, and each composite's object and vectors.
  size_t TreeBytes() const;

 protected:
  // What the walks dispatch on: every filter but the three composites is a leaf.
  enum class Shape : uint8_t { kLeaf, kList, kSkip, kWhile };
  Filter() = default;
  explicit Filter(Shape shape) : shape_(shape) {}

  bool reversed_ = false;

 private:
  friend struct FilterWalks;
  const Shape shape_ = Shape::kLeaf;
  // Composite levels on the longest path down (leaves 0), set at construction.
  uint32_t height_ = 0;
};

// FilterList MUST_PASS_ALL (AND) / MUST_PASS_ONE (OR), with FilterListWithAND/OR's rules:
// AND shows a cell to sub-filters in order until one does not include it; OR shows it to
// every sub-filter still active, remembering per sub-filter a NEXT_COL/NEXT_ROW/hint answer
// for the rest of that column/family.
class FilterList : public Filter {
 public:
  enum class Op { kAnd, kOr };
  FilterList(Op op, std::vector<std::unique_ptr<Filter>> filters);
  ~FilterList() override;

  std::unique_ptr<Filter> Clone() const override;
  void Restart() override;
  void Reset() override;
  bool FilterAllRemaining() const override;
  bool FilterRowKey(std::string_view row) override;
  FilterCode FilterCell(const CellView& cell) override;
  void TransformCell(Cell* cell) const override;
  void FilterRowCells(std::vector<Cell>* cells) override;
  bool FilterRow() override;
  bool HasFilterRow() const override { return has_filter_row_; }
  bool IsFamilyEssential(std::string_view family) const override;
  bool NextCellHint(const CellView& cell, std::string* family,
                    std::string* qualifier) const override;
  void SetReversed(bool reversed) override;
  std::string ToString() const override;

  Op op() const { return op_; }
  const std::vector<std::unique_ptr<Filter>>& filters() const { return filters_; }

 private:
  friend struct FilterWalks;
  // Re-reads sub-filter i's FilterAllRemaining after a call that may have changed it.
  void Refresh(size_t i) {
    const bool now = filters_[i]->FilterAllRemaining();
    if (now == (done_[i] != 0)) return;
    done_[i] = now ? 1 : 0;
    done_count_ = now ? done_count_ + 1 : done_count_ - 1;
  }
  void RefreshAll();

  struct Prev {  // OR: the sub-filter's last answer, while it still covers later cells
    bool set = false;
    FilterCode code = FilterCode::kInclude;
    std::string family, qualifier;
    std::string hint_family, hint_qualifier;
    bool has_hint = false;
  };

  const Op op_;
  std::vector<std::unique_ptr<Filter>> filters_;
  bool has_filter_row_ = false;  // any sub-filter's, fixed at construction
  // Each sub-filter's FilterAllRemaining as last read, and how many are true: asking every
  // child again at every level made nested lists cost depth squared per cell.
  std::vector<char> done_;
  size_t done_count_ = 0;
  std::vector<Prev> prev_;
  std::vector<bool> included_;   // OR: which sub-filters included the current cell
  std::vector<size_t> hinting_;  // AND: sub-filters that answered with a hint
  std::vector<char> asked_;      // OR: which sub-filters were asked about the current cell
  // The list's own hint for the cell it last answered kSeekNextUsingHint to, worked out from
  // its sub-filters' as it answered, for the walk numbered hint_walk_: a parent (and the read
  // after the root's answer) takes it instead of walking the subtree again, which made nested
  // lists cost depth squared per cell.
  uint64_t hint_walk_ = 0;
  bool hint_found_ = false;
  std::string hint_family_, hint_qualifier_;
};

// SKIP x: the row is dropped when x answers anything but a plain include for any cell it sees.
class SkipFilter : public Filter {
 public:
  explicit SkipFilter(std::unique_ptr<Filter> inner);
  ~SkipFilter() override;
  std::unique_ptr<Filter> Clone() const override;
  void Restart() override;
  void Reset() override;
  bool FilterRowKey(std::string_view) override { return false; }
  FilterCode FilterCell(const CellView& cell) override;
  void TransformCell(Cell* cell) const override;
  bool FilterRow() override { return filter_row_; }
  bool HasFilterRow() const override { return true; }
  bool IsFamilyEssential(std::string_view family) const override;
  void SetReversed(bool reversed) override;
  std::string ToString() const override;

 private:
  friend struct FilterWalks;
  std::unique_ptr<Filter> inner_;
  bool filter_row_ = false;
};

// WHILE x: the whole scan ends as soon as x rejects a row key, a cell, or a row.
class WhileMatchFilter : public Filter {
 public:
  explicit WhileMatchFilter(std::unique_ptr<Filter> inner);
  ~WhileMatchFilter() override;
  std::unique_ptr<Filter> Clone() const override;
  void Restart() override;
  void Reset() override;
  bool FilterAllRemaining() const override { return done_ || inner_done_; }
  bool FilterRowKey(std::string_view row) override;
  FilterCode FilterCell(const CellView& cell) override;
  void TransformCell(Cell* cell) const override;
  bool FilterRow() override;
  bool HasFilterRow() const override { return true; }
  bool IsFamilyEssential(std::string_view family) const override;
  void SetReversed(bool reversed) override;
  std::string ToString() const override;

 private:
  friend struct FilterWalks;
  std::unique_ptr<Filter> inner_;
  bool done_ = false;
  bool inner_done_;  // inner_->FilterAllRemaining(), re-read after each call on inner_
};

}  // namespace hbemu::storage
