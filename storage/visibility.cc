#include "storage/visibility.h"

#include <algorithm>

#include "storage/coding.h"
#include "storage/key_format.h"

namespace hbemu::storage {

RowVisibility::RowVisibility(const TableDescriptor* table, const ReadSpec* spec, int64_t now_ms,
                             Filter* filter, std::string_view row, Purpose purpose)
    : table_(table), spec_(spec), now_ms_(now_ms), filter_(filter), row_(row), purpose_(purpose) {}

bool RowVisibility::Contains(const std::vector<int64_t>& v, int64_t ts) {
  return std::find(v.begin(), v.end(), ts) != v.end();
}

void RowVisibility::Reset(Filter* filter, std::string_view row) {
  filter_ = filter;
  row_ = row;
  filter_done_ = false;
  family_done_ = false;
  hint_active_ = false;
  in_family_ = false;
  in_column_ = false;
}

void RowVisibility::EnterFamily(std::string_view family) {
  in_family_ = true;
  delete_family_ts_ = -1;
  family_version_deletes_.clear();
  in_column_ = false;
  family_done_ = false;
  family_cells_ = 0;
  if (family_looked_up_ && family == family_) return;  // the next row's cells of this family
  family_looked_up_ = true;
  family_.assign(family.data(), family.size());
  family_desc_ = table_->FindFamily(family_);
  time_range_ = &spec_->TimeRangeFor(family_);

  selected_qualifiers_ = nullptr;
  family_selected_ = spec_->columns.all();
  if (!family_selected_) {
    const auto& families = spec_->columns.families();
    auto it = families.find(family_);
    if (it != families.end()) {
      family_selected_ = true;
      if (it->second.has_value()) selected_qualifiers_ = &*it->second;
    }
  }
  if (family_desc_ != nullptr) {
    max_versions_ = std::min(spec_->max_versions, family_desc_->max_versions);
    const int32_t ttl = family_desc_->ttl_seconds;
    oldest_unexpired_ts_ =
        (ttl <= 0 || ttl == kForeverTtl) ? INT64_MIN : now_ms_ - static_cast<int64_t>(ttl) * 1000;
  }
}

void RowVisibility::EnterColumn(std::string_view qualifier) {
  in_column_ = true;
  qualifier_.assign(qualifier.data(), qualifier.size());
  column_selected_ = family_selected_ && (selected_qualifiers_ == nullptr ||
                                          selected_qualifiers_->count(qualifier_) > 0);
  column_done_ = false;
  versions_seen_ = 0;
  versions_accepted_ = 0;
  delete_column_ts_ = -1;
  version_deletes_.clear();
}

// With KEEP_DELETED_CELLS a read "sees behind" markers outside its time range; otherwise a marker
// applies whenever it is newer than the range start
// (docs/hbase-semantics.md#deletes-and-time-range-reads).
bool RowVisibility::MarkerApplies(int64_t marker_ts) const {
  if (family_desc_->keep_deleted_cells == KeepDeletedCells::kFalse) return true;
  if (purpose_ == Purpose::kFlush) {
    return family_desc_->keep_deleted_cells == KeepDeletedCells::kTtl &&
           marker_ts < oldest_unexpired_ts_;
  }
  return marker_ts >= time_range_->min && marker_ts < time_range_->max;
}

// As measured on HBase 2.6.1: the n-th cell the family returns is kept when n > offset, and
// the family ends with the first kept cell that reaches limit + offset, so a limit of 0 keeps
// one cell like a limit of 1 (and the filter never sees the family's later cells). HBase's
// client drops a non-positive offset, so a negative one counts as 0.
bool RowVisibility::CountForStoreLimit() {
  ++family_cells_;
  const int64_t offset = std::max<int32_t>(spec_->store_offset, 0);
  if (family_cells_ <= offset) return false;
  if (spec_->store_limit >= 0 && family_cells_ >= spec_->store_limit + offset) {
    family_done_ = true;
  }
  return true;
}

RowVisibility::Skip RowVisibility::SkipAhead(std::string* key_suffix) const {
  if (filter_ != nullptr || !in_family_) return Skip::kNone;
  if (family_desc_ == nullptr || !family_selected_ || family_done_) return SkipFamily(key_suffix);
  if (!in_column_ || (column_selected_ && !column_done_)) return Skip::kNone;
  if (qualifier_.empty()) {
    // The empty qualifier also holds the family-wide markers, which matter to every later
    // column of the family that is read. Only when none is (a counter on "f:") may they go.
    if (selected_qualifiers_ == nullptr ||
        selected_qualifiers_->upper_bound(qualifier_) != selected_qualifiers_->end()) {
      return Skip::kNone;
    }
    return SkipFamily(key_suffix);
  }
  if (selected_qualifiers_ != nullptr) {
    auto next = selected_qualifiers_->upper_bound(qualifier_);
    if (next == selected_qualifiers_->end()) return SkipFamily(key_suffix);
    *key_suffix = ColumnKeySuffix(family_, *next);
    return Skip::kSeek;
  }
  // The commonest skip of a scan (a column that has its versions): the reader tells the next
  // column from the key it holds, with no target to build when no surplus version follows.
  return Skip::kNextColumn;
}

RowVisibility::Skip RowVisibility::SkipFamily(std::string* key_suffix) const {
  if (spec_->columns.all()) {
    *key_suffix = PrefixSuccessor(FamilyKeySuffix(family_));
    return Skip::kSeek;
  }
  // Selected families are sorted as their encodings are (unsigned bytes).
  const auto& families = spec_->columns.families();
  auto next = families.upper_bound(family_);
  if (next == families.end()) return Skip::kRowDone;
  *key_suffix = FamilyKeySuffix(next->first);
  return Skip::kSeek;
}

void RowVisibility::Add(std::string_view family, std::string_view qualifier, int64_t ts,
                        CellType type, std::string_view stored_value, CellSink* out) {
  if (filter_ != nullptr) {
    // HBase's matcher asks filterAllRemaining before every cell (DONE_SCAN).
    if (filter_done_) return;
    if (filter_->FilterAllRemaining()) {
      filter_done_ = true;
      return;
    }
  }
  if (!in_family_ || family != family_) EnterFamily(family);
  if (family_desc_ == nullptr) return;
  if (!in_column_ || qualifier != qualifier_) EnterColumn(qualifier);

  switch (type) {
    case CellType::kDeleteFamily:
      if (MarkerApplies(ts)) delete_family_ts_ = std::max(delete_family_ts_, ts);
      return;
    case CellType::kDeleteFamilyVersion:
      if (MarkerApplies(ts)) family_version_deletes_.push_back(ts);
      return;
    case CellType::kDeleteColumn:
      if (MarkerApplies(ts)) delete_column_ts_ = std::max(delete_column_ts_, ts);
      return;
    case CellType::kDelete:
      if (MarkerApplies(ts)) version_deletes_.push_back(ts);
      return;
    case CellType::kPut:
      break;
  }

  if (column_done_ || !column_selected_ || family_done_) return;
  if (hint_active_) {
    // Cells before the filter's seek hint are never read by HBase.
    const int c = family.compare(hint_family_);
    if (c < 0 || (c == 0 && qualifier.compare(hint_qualifier_) < 0)) return;
    hint_active_ = false;
  }
  std::string_view value;
  int64_t expires_at_ms;
  if (!DecodeCellValue(stored_value, &value, &expires_at_ms)) return;
  if (expires_at_ms < now_ms_) return;  // cell TTL: MIN_VERSIONS does not protect it
  if (ts <= delete_family_ts_ || ts <= delete_column_ts_ ||
      Contains(family_version_deletes_, ts) || Contains(version_deletes_, ts)) {
    return;  // deleted versions do not count against VERSIONS
  }
  if (ts >= time_range_->max) return;
  if (ts < time_range_->min) {
    column_done_ = true;
    return;
  }
  ++versions_seen_;
  // With a filter, versions up to the family VERSIONS reach it (HBASE-17125).
  const int32_t cap = filter_ != nullptr ? family_desc_->max_versions : max_versions_;
  if (versions_seen_ > cap) {
    column_done_ = true;
    return;
  }
  if (ts < oldest_unexpired_ts_ && versions_seen_ > family_desc_->min_versions) {
    column_done_ = true;
    return;
  }
  if (filter_ == nullptr) {
    if (CountForStoreLimit()) out->Append(family_, qualifier_, ts, value);
    // Any later put of this column would only be counted over the cap; knowing it now lets
    // the reader skip the column's remaining versions.
    if (versions_seen_ >= max_versions_) column_done_ = true;
    return;
  }
  const CellView view{row_, family_, qualifier_, ts, value};
  bool include = false;
  switch (filter_->FilterCell(view)) {
    case FilterCode::kInclude:
      include = true;
      break;
    case FilterCode::kIncludeAndNextCol:
      include = true;
      column_done_ = true;
      break;
    case FilterCode::kIncludeAndSeekNextRow:
      include = true;
      family_done_ = true;
      break;
    case FilterCode::kSkip:
      break;
    case FilterCode::kNextCol:
      column_done_ = true;
      break;
    case FilterCode::kNextRow:
      family_done_ = true;
      break;
    case FilterCode::kSeekNextUsingHint:
      hint_active_ = filter_->NextCellHint(view, &hint_family_, &hint_qualifier_);
      break;
  }
  if (!include) return;
  // Accepted versions are capped at min(request, VERSIONS); the filter has already seen the
  // one over the cap, as in HBase.
  if (++versions_accepted_ > max_versions_) {
    column_done_ = true;
    return;
  }
  Cell cell{family_, qualifier_, ts, std::string(value)};
  filter_->TransformCell(&cell);
  if (CountForStoreLimit()) out->AppendCell(std::move(cell));
}

bool RowVisibility::column_versions_full() const {
  // The tracker counts versions before the filter, up to the family's VERSIONS when there is
  // one (HBASE-17125), as Add does.
  if (family_desc_ == nullptr) return false;
  const int32_t cap = filter_ != nullptr ? family_desc_->max_versions : max_versions_;
  return versions_seen_ >= cap;
}

}  // namespace hbemu::storage
