#include "storage/visibility.h"

#include <algorithm>

#include "storage/key_format.h"

namespace hbemu::storage {

RowVisibility::RowVisibility(const TableDescriptor* table, const ReadSpec* spec, int64_t now_ms)
    : table_(table), spec_(spec), now_ms_(now_ms) {}

bool RowVisibility::Contains(const std::vector<int64_t>& v, int64_t ts) {
  return std::find(v.begin(), v.end(), ts) != v.end();
}

void RowVisibility::EnterFamily(std::string_view family) {
  in_family_ = true;
  family_.assign(family.data(), family.size());
  family_desc_ = table_->FindFamily(family_);
  delete_family_ts_ = -1;
  family_version_deletes_.clear();
  in_column_ = false;

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
  delete_column_ts_ = -1;
  version_deletes_.clear();
}

// With KEEP_DELETED_CELLS a read "sees behind" markers outside its time range; otherwise a
// marker applies whenever it is newer than the range start (HBASE_SEMANTICS.md 2.4).
bool RowVisibility::MarkerApplies(int64_t marker_ts) const {
  if (family_desc_->keep_deleted_cells == KeepDeletedCells::kFalse) return true;
  return marker_ts >= spec_->time_range.min && marker_ts < spec_->time_range.max;
}

void RowVisibility::Add(std::string_view family, std::string_view qualifier, int64_t ts,
                        CellType type, std::string_view stored_value, std::vector<Cell>* out) {
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

  if (column_done_ || !column_selected_) return;
  std::string_view value;
  int64_t expires_at_ms;
  if (!DecodeCellValue(stored_value, &value, &expires_at_ms)) return;
  if (expires_at_ms < now_ms_) return;  // cell TTL: MIN_VERSIONS does not protect it
  if (ts <= delete_family_ts_ || ts <= delete_column_ts_ ||
      Contains(family_version_deletes_, ts) || Contains(version_deletes_, ts)) {
    return;  // deleted versions do not count against VERSIONS
  }
  if (ts >= spec_->time_range.max) return;
  if (ts < spec_->time_range.min) {
    column_done_ = true;
    return;
  }
  ++versions_seen_;
  if (versions_seen_ > max_versions_) {
    column_done_ = true;
    return;
  }
  if (ts < oldest_unexpired_ts_ && versions_seen_ > family_desc_->min_versions) {
    column_done_ = true;
    return;
  }
  out->push_back(Cell{family_, qualifier_, ts, std::string(value)});
}

}  // namespace hbemu::storage
