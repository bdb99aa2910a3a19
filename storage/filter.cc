#include "storage/filter.h"

namespace hbemu::storage {
namespace {

bool IsInclude(FilterCode c) {
  return c == FilterCode::kInclude || c == FilterCode::kIncludeAndNextCol ||
         c == FilterCode::kIncludeAndSeekNextRow;
}

bool In(FilterCode c, std::initializer_list<FilterCode> set) {
  for (FilterCode s : set) {
    if (c == s) return true;
  }
  return false;
}

using C = FilterCode;

// FilterListWithAND.mergeReturnCode.
C MergeAnd(C rc, C local) {
  if (rc == C::kSeekNextUsingHint) return C::kSeekNextUsingHint;
  switch (local) {
    case C::kSeekNextUsingHint: return C::kSeekNextUsingHint;
    case C::kInclude: return rc;
    case C::kIncludeAndNextCol:
      if (In(rc, {C::kInclude, C::kIncludeAndNextCol})) return C::kIncludeAndNextCol;
      if (rc == C::kIncludeAndSeekNextRow) return C::kIncludeAndSeekNextRow;
      if (In(rc, {C::kSkip, C::kNextCol})) return C::kNextCol;
      return C::kNextRow;
    case C::kIncludeAndSeekNextRow:
      if (IsInclude(rc)) return C::kIncludeAndSeekNextRow;
      return C::kNextRow;
    case C::kSkip:
      if (In(rc, {C::kInclude, C::kSkip})) return C::kSkip;
      if (In(rc, {C::kIncludeAndNextCol, C::kNextCol})) return C::kNextCol;
      return C::kNextRow;
    case C::kNextCol:
      if (In(rc, {C::kIncludeAndSeekNextRow, C::kNextRow})) return C::kNextRow;
      return C::kNextCol;
    case C::kNextRow: return C::kNextRow;
  }
  return local;
}

// FilterListWithOR.mergeReturnCode.
C MergeOr(bool has_rc, C rc, C local) {
  if (!has_rc) return local;
  switch (local) {
    case C::kInclude: return C::kInclude;
    case C::kIncludeAndNextCol:
      if (In(rc, {C::kInclude, C::kSkip, C::kSeekNextUsingHint})) return C::kInclude;
      return C::kIncludeAndNextCol;
    case C::kIncludeAndSeekNextRow:
      if (In(rc, {C::kInclude, C::kSkip, C::kSeekNextUsingHint})) return C::kInclude;
      if (In(rc, {C::kIncludeAndNextCol, C::kNextCol})) return C::kIncludeAndNextCol;
      return C::kIncludeAndSeekNextRow;
    case C::kSkip:
      if (IsInclude(rc)) return C::kInclude;
      return C::kSkip;
    case C::kNextCol:
      if (rc == C::kInclude) return C::kInclude;
      if (In(rc, {C::kNextCol, C::kNextRow})) return C::kNextCol;
      if (In(rc, {C::kIncludeAndNextCol, C::kIncludeAndSeekNextRow})) return C::kIncludeAndNextCol;
      return C::kSkip;
    case C::kNextRow:
      if (In(rc, {C::kSkip, C::kSeekNextUsingHint})) return C::kSkip;
      return rc;
    case C::kSeekNextUsingHint:
      if (IsInclude(rc)) return C::kInclude;
      if (In(rc, {C::kSkip, C::kNextCol, C::kNextRow})) return C::kSkip;
      return C::kSeekNextUsingHint;
  }
  return local;
}

int CompareColumn(std::string_view f1, std::string_view q1, std::string_view f2,
                  std::string_view q2) {
  const int c = f1.compare(f2);
  return c != 0 ? c : q1.compare(q2);
}

std::string Join(const std::vector<std::unique_ptr<Filter>>& filters) {
  std::string out;
  for (size_t i = 0; i < filters.size(); ++i) {
    if (i > 0) out += ", ";
    out += filters[i]->ToString();
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------- FilterList

FilterList::FilterList(Op op, std::vector<std::unique_ptr<Filter>> filters)
    : op_(op), filters_(std::move(filters)), done_(filters_.size(), 0), prev_(filters_.size()),
      included_(filters_.size(), false) {
  for (const auto& f : filters_) has_filter_row_ = has_filter_row_ || f->HasFilterRow();
  RefreshAll();
}

// Each sub-filter's copy carries its own reversed flag already: setting it again here would walk
// the whole subtree at every level (quadratic in depth).
std::unique_ptr<Filter> FilterList::Clone() const {
  std::vector<std::unique_ptr<Filter>> copies;
  copies.reserve(filters_.size());
  for (const auto& f : filters_) copies.push_back(f->Clone());
  auto list = std::make_unique<FilterList>(op_, std::move(copies));
  list->reversed_ = reversed_;
  return list;
}

void FilterList::SetReversed(bool reversed) {
  reversed_ = reversed;
  for (auto& f : filters_) f->SetReversed(reversed);
  RefreshAll();
}

void FilterList::Refresh(size_t i) {
  const bool now = filters_[i]->FilterAllRemaining();
  if (now == (done_[i] != 0)) return;
  done_[i] = now ? 1 : 0;
  if (now) {
    ++done_count_;
  } else {
    --done_count_;
  }
}

void FilterList::RefreshAll() {
  for (size_t i = 0; i < filters_.size(); ++i) Refresh(i);
}

void FilterList::Restart() {
  for (auto& f : filters_) f->Restart();
  for (Prev& p : prev_) p = Prev();
  included_.assign(filters_.size(), false);
  hinting_.clear();
  RefreshAll();
}

void FilterList::Reset() {
  for (auto& f : filters_) f->Reset();
  // The columns and hints are read only while set: clearing the flags is enough, and keeps
  // the strings' buffers for the next row.
  for (Prev& p : prev_) {
    p.set = false;
    p.has_hint = false;
  }
  included_.assign(filters_.size(), false);
  RefreshAll();
}

bool FilterList::FilterAllRemaining() const {
  if (filters_.empty()) return false;
  return op_ == Op::kAnd ? done_count_ > 0 : done_count_ == filters_.size();
}

bool FilterList::FilterRowKey(std::string_view row) {
  if (filters_.empty()) return false;
  // Every sub-filter sees the row key (PrefixFilter tracks the row there), no early exit.
  if (op_ == Op::kAnd) {
    bool drop = false;
    for (size_t i = 0; i < filters_.size(); ++i) {
      if (done_[i]) {
        drop = true;
        continue;
      }
      if (filters_[i]->FilterRowKey(row)) drop = true;
      Refresh(i);
    }
    return drop;
  }
  bool drop = true;
  for (size_t i = 0; i < filters_.size(); ++i) {
    if (done_[i]) continue;
    if (!filters_[i]->FilterRowKey(row)) drop = false;
    Refresh(i);
  }
  return drop;
}

FilterCode FilterList::FilterCell(const CellView& cell) {
  if (filters_.empty()) return FilterCode::kInclude;
  return op_ == Op::kAnd ? FilterCellAnd(cell) : FilterCellOr(cell);
}

FilterCode FilterList::FilterCellAnd(const CellView& cell) {
  FilterCode rc = FilterCode::kInclude;
  hinting_.clear();
  for (size_t i = 0; i < filters_.size(); ++i) {
    if (done_[i]) return FilterCode::kNextRow;
    const FilterCode local = filters_[i]->FilterCell(cell);
    Refresh(i);
    if (local == FilterCode::kSeekNextUsingHint) hinting_.push_back(i);
    rc = MergeAnd(rc, local);
    // Later sub-filters only see cells the earlier ones include (HBASE-20565).
    if (!IsInclude(rc)) return rc;
  }
  return hinting_.empty() ? rc : FilterCode::kSeekNextUsingHint;
}

FilterCode FilterList::FilterCellOr(const CellView& cell) {
  bool has_rc = false;
  FilterCode rc = FilterCode::kSkip;
  bool every_hint = true;
  for (size_t i = 0; i < filters_.size(); ++i) {
    Filter& f = *filters_[i];
    included_[i] = false;
    if (done_[i]) continue;
    Prev& prev = prev_[i];
    bool known = false;
    FilterCode local = FilterCode::kSkip;
    if (prev.set) {  // FilterListWithOR.calculateReturnCodeByPrevCellAndRC
      switch (prev.code) {
        case FilterCode::kSeekNextUsingHint:
          if (prev.has_hint &&
              CompareColumn(cell.family, cell.qualifier, prev.hint_family, prev.hint_qualifier) < 0) {
            known = true;
            local = FilterCode::kSeekNextUsingHint;
          }
          break;
        case FilterCode::kNextCol:
        case FilterCode::kIncludeAndNextCol:
          if (cell.family == prev.family && cell.qualifier == prev.qualifier) {
            known = true;
            local = FilterCode::kNextCol;
          }
          break;
        case FilterCode::kNextRow:
        case FilterCode::kIncludeAndSeekNextRow:
          if (cell.family == prev.family) {
            known = true;
            local = FilterCode::kNextRow;
          }
          break;
        default:
          break;
      }
    }
    if (!known) {
      local = f.FilterCell(cell);
      Refresh(i);
      prev.code = local;
      prev.set = !(local == FilterCode::kInclude || local == FilterCode::kSkip);
      if (prev.set) {
        prev.family.assign(cell.family.data(), cell.family.size());
        prev.qualifier.assign(cell.qualifier.data(), cell.qualifier.size());
        prev.has_hint = local == FilterCode::kSeekNextUsingHint &&
                        f.NextCellHint(cell, &prev.hint_family, &prev.hint_qualifier);
      }
    } else {
      // HBase records the derived answer as the new "previous" one, for the same cell column.
      prev.code = local;
    }
    if (local != FilterCode::kSeekNextUsingHint) every_hint = false;
    rc = MergeOr(has_rc, rc, local);
    has_rc = true;
    if (IsInclude(local)) included_[i] = true;
  }
  if (every_hint && has_rc) return FilterCode::kSeekNextUsingHint;
  if (!has_rc) return FilterCode::kSkip;  // every sub-filter is done
  return rc;
}

void FilterList::TransformCell(Cell* cell) const {
  for (size_t i = 0; i < filters_.size(); ++i) {
    if (op_ == Op::kAnd || included_[i]) filters_[i]->TransformCell(cell);
  }
}

void FilterList::FilterRowCells(std::vector<Cell>* cells) {
  for (size_t i = 0; i < filters_.size(); ++i) {
    filters_[i]->FilterRowCells(cells);
    Refresh(i);
  }
}

bool FilterList::FilterRow() {
  if (filters_.empty()) return false;
  // Asked in list order, stopping at the first decisive answer: this is why
  // "SingleColumnValueFilter AND PageFilter" counts only matching rows.
  for (size_t i = 0; i < filters_.size(); ++i) {
    const bool drop = filters_[i]->FilterRow();
    Refresh(i);
    if (op_ == Op::kAnd && drop) return true;
    if (op_ == Op::kOr && !drop) return false;
  }
  return op_ == Op::kOr;
}

// FilterListBase: a family is essential if any sub-filter needs it (an empty list needs all).
bool FilterList::IsFamilyEssential(std::string_view family) const {
  if (filters_.empty()) return true;
  for (const auto& f : filters_) {
    if (f->IsFamilyEssential(family)) return true;
  }
  return false;
}

bool FilterList::NextCellHint(const CellView& cell, std::string* family,
                              std::string* qualifier) const {
  bool found = false;
  std::string f, q;
  auto consider = [&](const Filter& sub) {
    if (!sub.NextCellHint(cell, &f, &q)) return;
    const bool better = !found || (op_ == Op::kAnd ? CompareColumn(f, q, *family, *qualifier) > 0
                                                   : CompareColumn(f, q, *family, *qualifier) < 0);
    if (better) {
      *family = f;
      *qualifier = q;
      found = true;
    }
  };
  if (op_ == Op::kAnd) {
    for (size_t i : hinting_) consider(*filters_[i]);  // the furthest hint
  } else {
    for (size_t i = 0; i < filters_.size(); ++i) {
      if (done_[i]) continue;
      if (!prev_[i].has_hint) return false;  // someone needs the cells in between
      consider(*filters_[i]);                 // the nearest hint
    }
  }
  return found;
}

std::string FilterList::ToString() const {
  return std::string(op_ == Op::kAnd ? "AND(" : "OR(") + Join(filters_) + ")";
}

// ---------------------------------------------------------------- SKIP and WHILE

std::unique_ptr<Filter> SkipFilter::Clone() const {
  auto f = std::make_unique<SkipFilter>(inner_->Clone());
  f->reversed_ = reversed_;
  return f;
}

void SkipFilter::Restart() {
  inner_->Restart();
  filter_row_ = false;
}

void SkipFilter::Reset() {
  inner_->Reset();
  filter_row_ = false;
}

FilterCode SkipFilter::FilterCell(const CellView& cell) {
  const FilterCode rc = inner_->FilterCell(cell);
  if (rc != FilterCode::kInclude) filter_row_ = true;
  return rc;
}

void SkipFilter::SetReversed(bool reversed) {
  reversed_ = reversed;
  inner_->SetReversed(reversed);
}

std::string SkipFilter::ToString() const { return "SKIP(" + inner_->ToString() + ")"; }

std::unique_ptr<Filter> WhileMatchFilter::Clone() const {
  auto f = std::make_unique<WhileMatchFilter>(inner_->Clone());
  f->reversed_ = reversed_;
  return f;
}

void WhileMatchFilter::Restart() {
  inner_->Restart();
  done_ = false;
  inner_done_ = inner_->FilterAllRemaining();
}

void WhileMatchFilter::Reset() {
  inner_->Reset();
  inner_done_ = inner_->FilterAllRemaining();
}

bool WhileMatchFilter::FilterRowKey(std::string_view row) {
  if (FilterAllRemaining()) return true;
  const bool drop = inner_->FilterRowKey(row);
  inner_done_ = inner_->FilterAllRemaining();
  done_ = done_ || drop;
  return drop;
}

FilterCode WhileMatchFilter::FilterCell(const CellView& cell) {
  const FilterCode rc = inner_->FilterCell(cell);
  inner_done_ = inner_->FilterAllRemaining();
  done_ = done_ || rc != FilterCode::kInclude;
  return rc;
}

bool WhileMatchFilter::FilterRow() {
  const bool drop = inner_->FilterRow();
  inner_done_ = inner_->FilterAllRemaining();
  done_ = done_ || drop;
  return drop;
}

void WhileMatchFilter::SetReversed(bool reversed) {
  reversed_ = reversed;
  inner_->SetReversed(reversed);
  inner_done_ = inner_->FilterAllRemaining();
}

std::string WhileMatchFilter::ToString() const { return "WHILE(" + inner_->ToString() + ")"; }

}  // namespace hbemu::storage
