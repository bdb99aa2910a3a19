#pragma once

#include <memory>
#include <string_view>

#include "server/rest/body_status.h"
#include "storage/filter.h"
#include "server/limits.h"

namespace hbemu::server::rest {

// A scanner's `filter`: HBase's ScannerModel.FilterModel JSON tree, e.g.
//   {"type":"FilterList","op":"MUST_PASS_ALL","filters":[
//     {"type":"PrefixFilter","value":"cjE="},
//     {"type":"RowFilter","op":"EQUAL","comparator":{"type":"BinaryComparator","value":"cjE="}}]}
// built into the storage filter the filter language (and Thrift2's filterBytes) would build, by
// the same factories (storage/filters.h). Byte fields (value of the prefix/stop/binary
// comparators, family, qualifier, minColumn, maxColumn, prefixes) are base64; the regex and
// substring comparators' values are plain text, as HBase reads them.
//
// Filters: ColumnCountGetFilter, ColumnPaginationFilter, ColumnPrefixFilter, ColumnRangeFilter,
// DependentColumnFilter, FamilyFilter, FilterList, FirstKeyOnlyFilter, InclusiveStopFilter,
// KeyOnlyFilter, MultipleColumnPrefixFilter, PageFilter, PrefixFilter, QualifierFilter, RowFilter,
// SingleColumnValueFilter, SingleColumnValueExcludeFilter, SkipFilter, TimestampsFilter,
// ValueFilter, WhileMatchFilter. Comparators: BinaryComparator, BinaryPrefixComparator,
// RegexStringComparator, SubstringComparator. HBase's model also names MultiRowRangeFilter,
// RandomRowFilter, FuzzyRowFilter, BitComparator and NullComparator, which the store cannot
// evaluate: they are refused, named.
//
// HBase answers every failure here with 400 ("Bad request"): not JSON, an unknown property or
// type, a missing field, bad base64, an operator that is no CompareOperator. The message names
// the type or field. The tree is bounded by the filter_depth and filter_count limits (its JSON
// nesting is checked before parsing).
BodyStatus BuildScannerFilter(std::string_view json, std::shared_ptr<const storage::Filter>* out);
// The same under explicit limits (tests).
BodyStatus BuildScannerFilter(std::string_view json, const Limits& limits,
                              std::shared_ptr<const storage::Filter>* out);

}  // namespace hbemu::server::rest
