#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storage/cell.h"
#include "storage/read_spec.h"
#include "storage/schema.h"

namespace hbemu::storage {

// Decides which stored cells of one row a read sees, in a single pass over the row's cells in key
// order (family, qualifier, newest first, markers before puts). This is the one home of HBase's
// read rules (docs/hbase-semantics.md: #the-read-pipeline, #deletes, #ttl): delete markers of all
// four types mask covered puts whatever their write order; versions are counted after deletes and
// capped at min(request, family VERSIONS); the time range applies before counting; family TTL hides
// expired versions beyond MIN_VERSIONS; a cell TTL always hides. A family's own time range
// (ReadSpec::family_time_ranges) replaces the read's; the per-family cell limit and offset
// (ReadSpec::store_limit / store_offset) count the cells that pass everything above.
//
// With a filter, each cell that survives those checks goes through Filter::FilterCell at
// HBase's step (UserScanQueryMatcher.mergeFilterResponse): versions are counted up to the
// family VERSIONS before the filter, and accepted cells up to min(request, VERSIONS) after it.
// The filter's return code steers the rest of the column / family / row as HBase's seeks do.
//
// Not thread-safe; one instance per read, Reset between the rows of a scan.
class RowVisibility {
 public:
  // Who is reading. A flush (prune.h) keeps what a read of every version would see, except
  // that delete markers mask cells as HBase's flush tracks them: always without
  // KEEP_DELETED_CELLS, never with TRUE, and with TTL only once the marker itself expired
  // (CompactionScanQueryMatcher.trackDelete). So with KEEP_DELETED_CELLS a masked version still
  // counts against VERSIONS, which a read does not do.
  enum class Purpose { kRead, kFlush };

  // `table`, `spec` and `filter` (may be null) must outlive this object. `now_ms` is the
  // read's clock reading; `row` the row key shown to the filter.
  RowVisibility(const TableDescriptor* table, const ReadSpec* spec, int64_t now_ms,
                Filter* filter = nullptr, std::string_view row = {},
                Purpose purpose = Purpose::kRead);

  // Feeds the next stored cell of the row. Hands it to *out when the read sees it.
  void Add(std::string_view family, std::string_view qualifier, int64_t timestamp, CellType type,
           std::string_view stored_value, CellSink* out);
  // The same, appending a Cell to *out.
  void Add(std::string_view family, std::string_view qualifier, int64_t timestamp, CellType type,
           std::string_view stored_value, std::vector<Cell>* out) {
    CellVectorSink sink(out);
    Add(family, qualifier, timestamp, type, stored_value, &sink);
  }

  // What a reader without a filter may skip after the last Add: the cells that cannot change
  // the result (the rest of a column that has its versions, unselected columns and families),
  // so a read of a counter with thousands of stored versions costs a seek, not a walk.
  // Markers stay readable: the empty qualifier, which holds the family-wide markers, is only
  // skipped when no other column of its family is read, and a column's own markers only mask
  // that column.
  enum class Skip {
    kNone,        // read the next cell
    kNextColumn,  // no later cell of the last cell's column matters (*key_suffix not set)
    kSeek,        // no cell before the row's key prefix + *key_suffix matters
    kRowDone,     // no later cell of the row matters
  };
  // Always kNone with a filter, which may want to see any cell.
  Skip SkipAhead(std::string* key_suffix) const;

  // True once the filter said nothing more can pass (filterAllRemaining) while this row was
  // read: later cells are ignored and the scan ends after this row.
  bool filter_done() const { return filter_done_; }

  // After an Add that returned a cell: the selected qualifiers of its family when the read
  // names them (nullptr for a whole family), and whether that cell used up the versions its
  // column may return. HBase's ExplicitColumnTracker then seeks to the next named column (or
  // the next row), so what its store scanner peeks at next starts there.
  const std::set<std::string>* selected_qualifiers() const { return selected_qualifiers_; }
  bool column_versions_full() const;

  // Starts another row of the same read, as a new RowVisibility with the same table, spec,
  // clock reading and purpose would, with `filter` (a scan's filter is new in each region).
  // What depends only on a family (its descriptor, selection, versions, time range, TTL
  // horizon) is kept for the next row of the same family: looking it up again for every row
  // of a scan was a twentieth of the scan's server CPU.
  void Reset(Filter* filter, std::string_view row);

 private:
  void EnterFamily(std::string_view family);
  void EnterColumn(std::string_view qualifier);
  bool MarkerApplies(int64_t marker_ts) const;
  // Counts one more cell the read returns from this family. False when the store offset
  // swallows it; ends the family once the store limit is reached.
  bool CountForStoreLimit();
  Skip SkipFamily(std::string* key_suffix) const;
  static bool Contains(const std::vector<int64_t>& v, int64_t ts);

  const TableDescriptor* const table_;
  const ReadSpec* const spec_;
  const int64_t now_ms_;
  Filter* filter_;
  std::string_view row_;
  const Purpose purpose_;
  bool filter_done_ = false;
  bool family_done_ = false;  // the filter or the store limit ended this family in this row
  bool hint_active_ = false;       // the filter asked to seek to (hint_family_, hint_qualifier_)
  std::string hint_family_;
  std::string hint_qualifier_;

  // Current family.
  bool in_family_ = false;
  // family_desc_, the selection, max_versions_, time_range_ and oldest_unexpired_ts_ below
  // are family_'s.
  bool family_looked_up_ = false;
  std::string family_;
  const FamilyDescriptor* family_desc_ = nullptr;  // nullptr: not in the schema, ignore
  const std::set<std::string>* selected_qualifiers_ = nullptr;  // nullptr: whole family
  bool family_selected_ = false;
  int32_t max_versions_ = 1;
  const TimeRange* time_range_ = nullptr;  // the family's, or the read's
  int64_t family_cells_ = 0;               // returned-or-offset cells of this family
  int64_t oldest_unexpired_ts_ = 0;      // family TTL horizon
  int64_t delete_family_ts_ = -1;        // newest DeleteFamily marker seen
  std::vector<int64_t> family_version_deletes_;

  // Current column.
  bool in_column_ = false;
  std::string qualifier_;
  bool column_selected_ = false;
  bool column_done_ = false;
  int32_t versions_seen_ = 0;
  int32_t versions_accepted_ = 0;  // by the filter
  int64_t delete_column_ts_ = -1;        // newest DeleteColumn marker seen
  std::vector<int64_t> version_deletes_;
};

}  // namespace hbemu::storage
