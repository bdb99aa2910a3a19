#pragma once

#include <string>
#include <vector>

#include "THBaseService_types.h"
#include "storage/cell.h"
#include "storage/comparators.h"
#include "storage/read_spec.h"
#include "storage/schema.h"
#include "storage/status.h"
#include "storage/store.h"

namespace hbemu::server::thrift2_convert {

// Translation between Thrift2 structs and storage requests, following HBase's
// thrift2.ThriftUtilities. Failures HBase raises as IOException come back as a non-InvalidArgument
// status (TIOError); those it raises as runtime exceptions as InvalidArgument (INTERNAL_ERROR).

// "t" for the default namespace (unset or empty ns too), "ns:t" otherwise.
std::string FullTableName(const thrift2::TTableName& name);
// Always with ns set, as HBase returns it ("default" included).
thrift2::TTableName ToTTableName(const storage::TableName& name);

// TGet -> Get: exact `timestamp` wins over `timeRange`; maxVersions unset means 1;
// storeLimit/storeOffset per family.
storage::Status ToReadSpec(const thrift2::TGet& get, storage::ReadSpec* spec);
// TScan -> Scan: rows, columns, maxVersions (default 1), timeRange, colFamTimeRangeMap, batch,
// limit, filter, reversed.
storage::Status ToScanSpec(const thrift2::TScan& scan, storage::ScanSpec* spec);
// TCompareOp -> the storage operator; a value outside the enum is HBase's null operator.
storage::Status ToCompareOp(thrift2::TCompareOp::type in, storage::CompareOp* out);

// TPut -> one row mutation of puts: per-cell timestamps win over the put's own.
storage::Status ToRowMutation(const thrift2::TPut& put, storage::RowMutation* out);
// TDelete -> one row mutation of delete markers, by deleteType (docs/thrift-api.md#tdelete).
storage::Status ToRowMutation(const thrift2::TDelete& del, storage::RowMutation* out);
// TRowMutations -> one atomic row mutation, every part at one server "now".
storage::Status ToRowMutation(const thrift2::TRowMutations& mutations, storage::RowMutation* out);

// A row as TResult: `row` only when there are cells; type 4 (Put) per cell; stale (false) and
// partial (a batch piece with more of its row to come) always written.
void ToTResult(storage::RowResult&& row, thrift2::TResult* out);
// Cells of one row (increment/append results) as TResult.
void ToTResult(const std::string& row, std::vector<storage::Cell>&& cells, thrift2::TResult* out,
               bool partial = false);

}  // namespace hbemu::server::thrift2_convert
