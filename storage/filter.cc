#include "storage/filter.h"

#include "storage/filter_walks.h"

// The composites' own state; every operation that reaches their sub-filters is a walk
// (storage/filter_walks.cc, storage/filter_evaluation.cc).
namespace hbemu::storage {

// ---------------------------------------------------------------- FilterList

FilterList::FilterList(Op op, std::vector<std::unique_ptr<Filter>> filters)
    : Filter(Shape::kList), op_(op), filters_(std::move(filters)), done_(filters_.size(), 0),
      prev_(filters_.size()), included_(filters_.size(), false), asked_(filters_.size(), 0) {
  // Both O(1) per sub-filter: HasFilterRow of a list is this flag, of SKIP/WHILE a constant.
  for (const auto& f : filters_) has_filter_row_ = has_filter_row_ || f->HasFilterRow();
  FilterWalks::SetHeight(this);
  RefreshAll();
}

FilterList::~FilterList() { FilterWalks::TearDown(std::move(filters_)); }

void FilterList::RefreshAll() {
  for (size_t i = 0; i < filters_.size(); ++i) Refresh(i);
}

bool FilterList::FilterAllRemaining() const {
  if (filters_.empty()) return false;
  return op_ == Op::kAnd ? done_count_ > 0 : done_count_ == filters_.size();
}

std::unique_ptr<Filter> FilterList::Clone() const { return FilterWalks::Clone(*this); }
void FilterList::Restart() { FilterWalks::Restart(this); }
void FilterList::Reset() { FilterWalks::Reset(this); }
void FilterList::SetReversed(bool reversed) { FilterWalks::SetReversed(this, reversed); }
bool FilterList::FilterRowKey(std::string_view row) { return FilterWalks::FilterRowKey(this, row); }
FilterCode FilterList::FilterCell(const CellView& cell) {
  return FilterWalks::FilterCell(this, cell);
}
void FilterList::TransformCell(Cell* cell) const { FilterWalks::TransformCell(*this, cell); }
void FilterList::FilterRowCells(std::vector<Cell>* cells) {
  FilterWalks::FilterRowCells(this, cells);
}
bool FilterList::FilterRow() { return FilterWalks::FilterRow(this); }
bool FilterList::IsFamilyEssential(std::string_view family) const {
  return FilterWalks::IsFamilyEssential(*this, family);
}
bool FilterList::NextCellHint(const CellView& cell, std::string* family,
                              std::string* qualifier) const {
  return FilterWalks::NextCellHint(*this, cell, family, qualifier);
}
std::string FilterList::ToString() const { return FilterWalks::ToString(*this); }

size_t Filter::TreeBytes() const { return FilterWalks::TreeBytes(*this); }

// ---------------------------------------------------------------- SKIP and WHILE

namespace {

void TearDownOne(std::unique_ptr<Filter> inner) {
  if (inner == nullptr) return;  // handed over by a teardown already
  std::vector<std::unique_ptr<Filter>> pending;
  pending.push_back(std::move(inner));
  FilterWalks::TearDown(std::move(pending));
}

}  // namespace

SkipFilter::SkipFilter(std::unique_ptr<Filter> inner)
    : Filter(Shape::kSkip), inner_(std::move(inner)) {
  FilterWalks::SetHeight(this);
}

SkipFilter::~SkipFilter() { TearDownOne(std::move(inner_)); }

std::unique_ptr<Filter> SkipFilter::Clone() const { return FilterWalks::Clone(*this); }
void SkipFilter::Restart() { FilterWalks::Restart(this); }
void SkipFilter::Reset() { FilterWalks::Reset(this); }
void SkipFilter::SetReversed(bool reversed) { FilterWalks::SetReversed(this, reversed); }
FilterCode SkipFilter::FilterCell(const CellView& cell) {
  return FilterWalks::FilterCell(this, cell);
}
void SkipFilter::TransformCell(Cell* cell) const { FilterWalks::TransformCell(*this, cell); }
bool SkipFilter::IsFamilyEssential(std::string_view family) const {
  return FilterWalks::IsFamilyEssential(*this, family);
}
std::string SkipFilter::ToString() const { return FilterWalks::ToString(*this); }

WhileMatchFilter::WhileMatchFilter(std::unique_ptr<Filter> inner)
    : Filter(Shape::kWhile), inner_(std::move(inner)), inner_done_(inner_->FilterAllRemaining()) {
  FilterWalks::SetHeight(this);
}

WhileMatchFilter::~WhileMatchFilter() { TearDownOne(std::move(inner_)); }

std::unique_ptr<Filter> WhileMatchFilter::Clone() const { return FilterWalks::Clone(*this); }
void WhileMatchFilter::Restart() { FilterWalks::Restart(this); }
void WhileMatchFilter::Reset() { FilterWalks::Reset(this); }
void WhileMatchFilter::SetReversed(bool reversed) { FilterWalks::SetReversed(this, reversed); }
bool WhileMatchFilter::FilterRowKey(std::string_view row) {
  return FilterWalks::FilterRowKey(this, row);
}
FilterCode WhileMatchFilter::FilterCell(const CellView& cell) {
  return FilterWalks::FilterCell(this, cell);
}
void WhileMatchFilter::TransformCell(Cell* cell) const {
  FilterWalks::TransformCell(*this, cell);
}
bool WhileMatchFilter::FilterRow() { return FilterWalks::FilterRow(this); }
bool WhileMatchFilter::IsFamilyEssential(std::string_view family) const {
  return FilterWalks::IsFamilyEssential(*this, family);
}
std::string WhileMatchFilter::ToString() const { return FilterWalks::ToString(*this); }

}  // namespace hbemu::storage
