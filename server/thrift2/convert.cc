#include "server/thrift2/convert.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "server/admin/console.h"
#include "server/gateway/attributes.h"
#include "server/limits.h"
#include "server/thrift2/filter_bytes.h"
#include "storage/filter_parser.h"
#include "storage/request_checks.h"

namespace hbemu::server::thrift2_convert {

using storage::ColumnMutation;
using storage::MutationType;
using storage::Status;

namespace {

constexpr int64_t kLatest = storage::kLatestTimestamp;
constexpr int8_t kPutTypeCode = 4;  // HBase KeyValue.Type.Put

void AddColumns(const std::vector<thrift2::TColumn>& columns, storage::ColumnSelection* out) {
  for (const thrift2::TColumn& c : columns) {
    if (c.__isset.qualifier) {
      out->AddColumn(c.family, c.qualifier);
    } else {
      out->AddFamily(c.family);
    }
  }
}

// HBase's TimeRange checks: a runtime exception in HBase, so an application error here.
Status MakeTimeRange(int64_t min, int64_t max, storage::TimeRange* out) {
  HBEMU_RETURN_IF_ERROR(storage::CheckTimeRange(min, max));
  out->min = min;
  out->max = max;
  return Status::OK();
}

// Put/Delete constructors and addColumn: IllegalArgumentExceptions while HBase converts the
// request, before any table is looked up, so the whole call fails and nothing is written.
using storage::CheckRow;
using storage::CheckTimestamp;

}  // namespace

std::string FullTableName(const thrift2::TTableName& name) {
  if (!name.__isset.ns || name.ns.empty() || name.ns == "default") return name.qualifier;
  return name.ns + ":" + name.qualifier;
}

thrift2::TTableName ToTTableName(const storage::TableName& name) {
  thrift2::TTableName out;
  out.__set_ns(name.ns);
  out.__set_qualifier(name.qualifier);
  return out;
}

Status ToReadSpec(const thrift2::TGet& get, storage::ReadSpec* spec) {
  HBEMU_RETURN_IF_ERROR(CheckRow(get.row));  // new Get(row)
  if (get.__isset.columns) AddColumns(get.columns, &spec->columns);
  if (get.__isset.timestamp) {
    // Get.setTimestamp: exactly that version, [ts, ts + 1); HBase's ts + 1 overflows at
    // Long.MAX_VALUE and TimeRange refuses the negative end.
    const int64_t ts = get.timestamp;
    if (ts == std::numeric_limits<int64_t>::max()) {
      return Status::InvalidArgument("maxStamp is smaller than minStamp");
    }
    HBEMU_RETURN_IF_ERROR(MakeTimeRange(ts, ts + 1, &spec->time_range));
  } else if (get.__isset.timeRange) {
    HBEMU_RETURN_IF_ERROR(
        MakeTimeRange(get.timeRange.minStamp, get.timeRange.maxStamp, &spec->time_range));
  }
  if (get.__isset.maxVersions) {
    // Get.readVersions throws a plain IOException here, which HBase's client may retry.
    if (get.maxVersions <= 0) return Status::IOError("versions must be positive");
    spec->max_versions = get.maxVersions;
  }
  if (get.__isset.filterString) {
    HBEMU_RETURN_IF_ERROR(storage::ParseFilterString(
        get.filterString, FilterLimitsOf(CurrentLimits()), &spec->filter));
  }
  // Set after filterString, as HBase does: the protobuf filter wins when both are sent.
  if (get.__isset.filterBytes) {
    HBEMU_RETURN_IF_ERROR(thrift2_filter_bytes::DecodeFilterBytes(get.filterBytes, &spec->filter));
  }
  if (get.__isset.storeLimit) spec->store_limit = get.storeLimit;
  if (get.__isset.storeOffset) spec->store_offset = get.storeOffset;
  return Status::OK();
}

Status ToScanSpec(const thrift2::TScan& scan, storage::ScanSpec* spec) {
  if (scan.__isset.startRow) spec->start_row = scan.startRow;
  if (scan.__isset.stopRow) spec->stop_row = scan.stopRow;
  if (scan.__isset.columns) AddColumns(scan.columns, &spec->read.columns);
  if (scan.__isset.maxVersions) spec->read.max_versions = scan.maxVersions;
  if (scan.__isset.timeRange) {
    HBEMU_RETURN_IF_ERROR(MakeTimeRange(scan.timeRange.minStamp, scan.timeRange.maxStamp,
                                        &spec->read.time_range));
  }
  if (scan.__isset.filterString) {
    HBEMU_RETURN_IF_ERROR(storage::ParseFilterString(
        scan.filterString, FilterLimitsOf(CurrentLimits()), &spec->read.filter));
  }
  if (scan.__isset.filterBytes) {
    HBEMU_RETURN_IF_ERROR(
        thrift2_filter_bytes::DecodeFilterBytes(scan.filterBytes, &spec->read.filter));
  }
  if (scan.__isset.batchSize && scan.batchSize > 0) spec->batch = scan.batchSize;
  if (scan.__isset.reversed) spec->reversed = scan.reversed;
  if (scan.__isset.colFamTimeRangeMap) {
    for (const auto& [family, range] : scan.colFamTimeRangeMap) {
      HBEMU_RETURN_IF_ERROR(
          MakeTimeRange(range.minStamp, range.maxStamp, &spec->read.family_time_ranges[family]));
    }
  }
  if (scan.__isset.limit && scan.limit > 0) spec->limit = scan.limit;
  // HBase's client then stops at the end of the first region it reads.
  if (scan.__isset.limit && scan.limit == 0) spec->first_region_only = true;
  // caching, cacheBlocks, readType, consistency, targetReplicaId and authorizations tune RPCs,
  // caches and replicas in HBase; none changes what a single-replica store returns.
  return Status::OK();
}

Status ToCompareOp(thrift2::TCompareOp::type in, storage::CompareOp* out) {
  switch (in) {
    case thrift2::TCompareOp::LESS: *out = storage::CompareOp::kLess; return Status::OK();
    case thrift2::TCompareOp::LESS_OR_EQUAL:
      *out = storage::CompareOp::kLessOrEqual;
      return Status::OK();
    case thrift2::TCompareOp::EQUAL: *out = storage::CompareOp::kEqual; return Status::OK();
    case thrift2::TCompareOp::NOT_EQUAL: *out = storage::CompareOp::kNotEqual; return Status::OK();
    case thrift2::TCompareOp::GREATER_OR_EQUAL:
      *out = storage::CompareOp::kGreaterOrEqual;
      return Status::OK();
    case thrift2::TCompareOp::GREATER: *out = storage::CompareOp::kGreater; return Status::OK();
    case thrift2::TCompareOp::NO_OP: *out = storage::CompareOp::kNoOp; return Status::OK();
  }
  // compareOpFromThrift answers null for an unknown value; the builder's null check throws.
  return Status::InvalidArgument("compareOp for checkAndMutate can not be null");
}

Status ToRowMutation(const thrift2::TPut& put, storage::RowMutation* out) {
  HBEMU_RETURN_IF_ERROR(CheckRow(put.row));
  // new Put(row, ts) checks the put's own timestamp even when every cell brings its own. A
  // cell's negative timestamp is checked by the region server instead (storage).
  if (put.__isset.timestamp) HBEMU_RETURN_IF_ERROR(CheckTimestamp(put.timestamp));
  if (put.columnValues.empty()) return Status::InvalidArgument("No columns to insert");
  out->row = put.row;
  out->cell_ttl_ms = put.__isset.attributes ? CellTtlFromAttributes(put.attributes) : 0;
  const int64_t put_ts = put.__isset.timestamp ? put.timestamp : kLatest;
  out->mutations.reserve(out->mutations.size() + put.columnValues.size());
  for (const thrift2::TColumnValue& cv : put.columnValues) {
    ColumnMutation m;
    m.type = MutationType::kPut;
    m.family = cv.family;
    m.qualifier = cv.qualifier;
    m.value = cv.value;
    m.timestamp = cv.__isset.timestamp ? cv.timestamp : put_ts;
    out->mutations.push_back(std::move(m));
  }
  return Status::OK();
}

Status ToRowMutation(const thrift2::TDelete& del, storage::RowMutation* out) {
  HBEMU_RETURN_IF_ERROR(CheckRow(del.row));
  out->row = del.row;
  if (!del.__isset.columns || del.columns.empty()) {
    if (!del.__isset.columns && del.__isset.timestamp) {
      HBEMU_RETURN_IF_ERROR(CheckTimestamp(del.timestamp));
    }
    // No columns: the whole row, up to the delete's timestamp. An empty list also deletes the
    // whole row, at "now": HBase builds the Delete without the timestamp once columns are set.
    ColumnMutation m;
    m.type = MutationType::kDeleteRow;
    m.timestamp = (!del.__isset.columns && del.__isset.timestamp) ? del.timestamp : kLatest;
    out->mutations.push_back(std::move(m));
    return Status::OK();
  }
  for (const thrift2::TColumn& column : del.columns) {
    ColumnMutation m;
    m.family = column.family;
    // Without a qualifier, DELETE_COLUMN(S) mean the empty qualifier, not the family.
    m.qualifier = column.__isset.qualifier ? column.qualifier : std::string();
    if (column.__isset.timestamp) HBEMU_RETURN_IF_ERROR(CheckTimestamp(column.timestamp));
    m.timestamp = column.__isset.timestamp ? column.timestamp : kLatest;
    switch (del.deleteType) {
      case thrift2::TDeleteType::DELETE_COLUMN:
        m.type = MutationType::kDeleteVersion;
        break;
      case thrift2::TDeleteType::DELETE_COLUMNS:
        m.type = MutationType::kDeleteColumn;
        break;
      case thrift2::TDeleteType::DELETE_FAMILY:
        // Delete.addFamily replaces whatever this Delete already holds for the family, so of
        // several DELETE_FAMILY columns of one family only the last one counts.
        out->mutations.erase(std::remove_if(out->mutations.begin(), out->mutations.end(),
                                            [&](const ColumnMutation& earlier) {
                                              return earlier.family == column.family;
                                            }),
                             out->mutations.end());
        m.type = MutationType::kDeleteFamily;
        m.qualifier.clear();
        break;
      case thrift2::TDeleteType::DELETE_FAMILY_VERSION:
        if (!column.__isset.timestamp) {
          return Status::InvalidArgument("Timestamp is required for DELETE_FAMILY_VERSION");
        }
        m.type = MutationType::kDeleteFamilyVersion;
        m.qualifier.clear();
        break;
      default:
        return Status::DoNotRetry("Unknown delete type " + std::to_string(del.deleteType));
    }
    out->mutations.push_back(std::move(m));
  }
  return Status::OK();
}

Status ToRowMutation(const thrift2::TRowMutations& mutations, storage::RowMutation* out) {
  HBEMU_RETURN_IF_ERROR(CheckRow(mutations.row));  // new RowMutations(row)
  // RowMutations refuses to be sent empty.
  if (mutations.mutations.empty()) return Status::InvalidArgument("No mutations in RowMutations");
  out->row = mutations.row;
  // A put without columns is refused when the whole RowMutations is sent, after every part was
  // added (and its row checked).
  bool empty_put = false;
  for (const thrift2::TMutation& m : mutations.mutations) {
    storage::RowMutation part;
    if (m.__isset.put && m.put.columnValues.empty()) {
      HBEMU_RETURN_IF_ERROR(CheckRow(m.put.row));
      if (m.put.__isset.timestamp) HBEMU_RETURN_IF_ERROR(CheckTimestamp(m.put.timestamp));
      empty_put = true;
      part.row = m.put.row;
    } else if (m.__isset.put) {
      HBEMU_RETURN_IF_ERROR(ToRowMutation(m.put, &part));
      // One TTL per row mutation: the first put that asks for one sets it.
      if (out->cell_ttl_ms == 0) out->cell_ttl_ms = part.cell_ttl_ms;
    } else if (m.__isset.deleteSingle) {
      HBEMU_RETURN_IF_ERROR(ToRowMutation(m.deleteSingle, &part));
    } else {
      continue;  // an empty union: nothing to apply
    }
    if (part.row != mutations.row) {
      // RowMutations.add: WrongRowIOException, a plain (retryable) IOException.
      return Status::IOError("The row in the recently added Mutation <" +
                             admin::ToStringBinary(part.row) + "> doesn't match the original one <" +
                             admin::ToStringBinary(mutations.row) + ">");
    }
    for (ColumnMutation& c : part.mutations) out->mutations.push_back(std::move(c));
  }
  if (empty_put) return Status::InvalidArgument("No columns to insert");
  return Status::OK();
}

void ToTResult(const std::string& row, std::vector<storage::Cell>&& cells, thrift2::TResult* out,
               bool partial) {
  out->__isset.stale = true;
  out->__set_partial(partial);
  if (cells.empty()) return;
  out->__set_row(row);
  out->columnValues.resize(cells.size());
  for (size_t i = 0; i < cells.size(); ++i) {
    storage::Cell& cell = cells[i];
    thrift2::TColumnValue& cv = out->columnValues[i];
    cv.family = std::move(cell.family);
    cv.qualifier = std::move(cell.qualifier);
    cv.value = std::move(cell.value);
    cv.__set_timestamp(cell.timestamp);
    cv.__set_type(kPutTypeCode);
  }
}

void ToTResult(storage::RowResult&& row, thrift2::TResult* out) {
  ToTResult(row.row, std::move(row.cells), out, row.partial);
}

}  // namespace hbemu::server::thrift2_convert
