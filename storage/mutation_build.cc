#include "storage/mutation_build.h"

#include <algorithm>
#include <tuple>

#include <leveldb/write_batch.h>

#include "storage/coding.h"
#include "storage/key_format.h"
#include "storage/request_checks.h"

namespace hbemu::storage {
namespace {


struct ColumnKey {
  std::string_view family;
  std::string_view qualifier;
  bool operator==(const ColumnKey& o) const {
    return family == o.family && qualifier == o.qualifier;
  }
};

std::string EncodeLong(int64_t v) {
  std::string s;
  PutFixed64BE(&s, static_cast<uint64_t>(v));
  return s;
}

}  // namespace

Status NoSuchFamily(const TableDescriptor& table, std::string_view family) {
  return Status::NoSuchColumnFamily("Column family " + std::string(family) +
                                    " does not exist in region " + table.name.ToString() +
                                    " in table '" + table.name.ToString() + "'");
}

int64_t WriteTime::After(int64_t mark) const {
  const int64_t base = std::min(now, kNewestWriteTimestamp);
  if (mark == ClockMarks::kNone || mark < base) return base;
  return mark >= kNewestWriteTimestamp ? kNewestWriteTimestamp : mark + 1;
}

MutationBuilder::MutationBuilder(const TableDescriptor& table, RowRead read,
                                 int64_t max_cell_bytes, leveldb::WriteBatch* batch)
    : table_(table), read_(std::move(read)), max_cell_bytes_(max_cell_bytes), batch_(batch) {}

Status MutationBuilder::Validate(const RowMutationView& m) const {
  for (const ColumnMutationView* it = m.begin; it != m.end; ++it) {
    const ColumnMutationView& c = *it;
    if (c.type != MutationType::kDeleteRow && table_.FindFamily(c.family) == nullptr) {
      return NoSuchFamily(table_, c.family);
    }
    HBEMU_RETURN_IF_ERROR(CheckTimestamp(c.timestamp));
    if (c.type == MutationType::kPut &&
        static_cast<int64_t>(m.row.size() + c.family.size() + c.qualifier.size() +
                             c.value.size()) > max_cell_bytes_) {
      return Status::InvalidArgument("KeyValue size too large");
    }
  }
  return Status::OK();
}

void MutationBuilder::Put(std::string_view row, std::string_view family,
                          std::string_view qualifier, int64_t ts, CellType type) {
  key_.clear();
  AppendCellKey(&key_, table_.id, row, family, qualifier, ts, type);
  batch_->Put(key_, type == CellType::kPut ? leveldb::Slice(value_) : leveldb::Slice());
}

Status MutationBuilder::Add(const RowMutationView& m, const WriteTime& time, ClockMarks* dated) {
  dated->clear();
  HBEMU_RETURN_IF_ERROR(Validate(m));
  // A server-dated cell goes past the marks that cover it; one that lands ahead of the clock
  // becomes a mark itself, so the row's next server-dated write goes past it in turn.
  const ClockMarks* ahead = time.ahead;
  const auto date = [&](int64_t mark, std::string_view family, std::string_view qualifier,
                        bool whole_family) {
    const int64_t ts = time.After(mark);
    if (time.Ahead(ts)) dated->Add(family, qualifier, whole_family, ts);
    return ts;
  };
  std::vector<std::pair<ColumnKey, int>> latest_version_deletes;
  for (const ColumnMutationView* it = m.begin; it != m.end; ++it) {
    const ColumnMutationView& c = *it;
    const bool latest = c.timestamp == kLatestTimestamp;
    int64_t ts = c.timestamp;
    switch (c.type) {
      case MutationType::kPut: {
        if (latest) {
          ts = date(ahead ? ahead->ForColumn(c.family, c.qualifier) : ClockMarks::kNone,
                    c.family, c.qualifier, false);
          const int64_t raised = std::min(time.min_put_ts, kNewestWriteTimestamp);
          if (raised > ts) {
            ts = raised;
            if (time.min_put_ts_is_mark && time.Ahead(ts)) {
              dated->Add(c.family, c.qualifier, false, ts);
            }
          }
        }
        // HBase compares ts + ttl in Java longs, which wrap on overflow (a huge ts plus a TTL
        // reads as already expired). Adding as unsigned gives the same wrapped value without
        // signed-overflow UB (found by UBSan via TtlStoreTest.CellTtlOverflowWrapsAsInHBase).
        const int64_t expires =
            m.cell_ttl_ms > 0 ? static_cast<int64_t>(static_cast<uint64_t>(ts) +
                                                     static_cast<uint64_t>(m.cell_ttl_ms))
                              : kNoExpiry;
        value_.clear();
        EncodeCellValue(&value_, c.value, expires);
        Put(m.row, c.family, c.qualifier, ts, CellType::kPut);
        break;
      }
      case MutationType::kDeleteColumn:
        if (latest) {
          ts = date(ahead ? ahead->ForColumn(c.family, c.qualifier) : ClockMarks::kNone,
                    c.family, c.qualifier, false);
        }
        Put(m.row, c.family, c.qualifier, ts, CellType::kDeleteColumn);
        break;
      case MutationType::kDeleteVersion: {
        if (latest) {
          // The n-th such delete of a column in one mutation marks its n-th newest version,
          // so repeated deletes peel versions off one at a time; with none left, "now".
          ts = std::min(time.now, kNewestWriteTimestamp);
          const ColumnKey column{c.family, c.qualifier};
          auto found = std::find_if(latest_version_deletes.begin(), latest_version_deletes.end(),
                                    [&](const auto& e) { return e.first == column; });
          if (found == latest_version_deletes.end()) {
            latest_version_deletes.push_back({column, 0});
            found = latest_version_deletes.end() - 1;
          }
          const int nth = found->second++;
          ReadSpec spec;
          spec.columns.AddColumn(std::string(c.family), std::string(c.qualifier));
          spec.max_versions = nth + 1;
          RowResult existing;
          HBEMU_RETURN_IF_ERROR(read_(m.row, spec, &existing));
          if (static_cast<int>(existing.cells.size()) > nth) ts = existing.cells[nth].timestamp;
        }
        Put(m.row, c.family, c.qualifier, ts, CellType::kDelete);
        break;
      }
      case MutationType::kDeleteFamily:
        if (latest) {
          ts = date(ahead ? ahead->ForFamily(c.family) : ClockMarks::kNone, c.family, {}, true);
        }
        // Family-level markers live under the empty qualifier, so a reader meets them before
        // any other column of the family.
        Put(m.row, c.family, "", ts, CellType::kDeleteFamily);
        break;
      case MutationType::kDeleteFamilyVersion:
        // At LATEST_TIMESTAMP the region server dates the marker "now", as every delete but a
        // version delete: it then masks only cells written in that very millisecond.
        if (latest) ts = std::min(time.now, kNewestWriteTimestamp);
        Put(m.row, c.family, "", ts, CellType::kDeleteFamilyVersion);
        break;
      case MutationType::kDeleteRow:
        if (latest) ts = time.After(ahead ? ahead->ForRow() : ClockMarks::kNone);
        for (const FamilyDescriptor& f : table_.families) {
          if (time.Ahead(ts)) dated->Add(f.name, {}, true, ts);
          Put(m.row, f.name, "", ts, CellType::kDeleteFamily);
        }
        break;
    }
  }
  return Status::OK();
}

int64_t ReadModifyWriteTimestamp(const WriteTime& time, int64_t mark,
                                 const std::optional<int64_t>& old_ts, bool* mark_it) {
  int64_t ts = time.After(mark);
  bool server_paced = true;
  if (old_ts.has_value()) {
    // HRegion.reckonDelta: the new cell must be newer than the one it was computed from, even
    // when that one is dated in the future; but never at INT64_MAX (kNewestWriteTimestamp).
    const int64_t after_old =
        *old_ts >= kNewestWriteTimestamp ? kNewestWriteTimestamp : *old_ts + 1;
    ts = std::max(ts, after_old);
    // A cell ahead of both the clock and the column's mark was dated by the client.
    server_paced = *old_ts <= std::max(time.now, mark);
  }
  *mark_it = server_paced && time.Ahead(ts);
  return ts;
}

NewValueFn IncrementBy(const std::vector<ColumnIncrement>& increments) {
  return [&increments](size_t i, const std::optional<Cell>& old, std::string* value) {
    uint64_t sum = static_cast<uint64_t>(increments[i].amount);
    if (old.has_value()) {
      if (old->value.size() != 8) {
        return Status::DoNotRetry("Field is not a long, it's " +
                                  std::to_string(old->value.size()) + " bytes wide");
      }
      sum += DecodeFixed64BE(old->value.data());  // wraps around, as Java's long addition
    }
    *value = EncodeLong(static_cast<int64_t>(sum));
    return Status::OK();
  };
}

NewValueFn AppendTo(const std::vector<ColumnAppend>& appends) {
  return [&appends](size_t i, const std::optional<Cell>& old, std::string* value) {
    *value = old.has_value() ? old->value + appends[i].value : appends[i].value;
    return Status::OK();
  };
}

Status BuildReadModifyWrite(const TableDescriptor& table, std::string_view row,
                            const std::vector<std::pair<std::string, std::string>>& columns,
                            const RowResult& current, const NewValueFn& new_value,
                            const WriteTime& time, int64_t max_cell_bytes,
                            leveldb::WriteBatch* batch, std::vector<Cell>* result,
                            ClockMarks* dated) {
  dated->clear();
  result->clear();
  RowMutation m;
  m.row = std::string(row);
  for (size_t i = 0; i < columns.size(); ++i) {
    const auto& [family, qualifier] = columns[i];
    std::optional<Cell> old;
    for (const Cell& cell : current.cells) {
      if (cell.family == family && cell.qualifier == qualifier) {
        old = cell;
        break;
      }
    }
    ColumnMutation put;
    put.family = family;
    put.qualifier = qualifier;
    HBEMU_RETURN_IF_ERROR(new_value(i, old, &put.value));
    const int64_t mark =
        time.ahead ? time.ahead->ForColumn(family, qualifier) : ClockMarks::kNone;
    bool mark_it = false;
    put.timestamp = ReadModifyWriteTimestamp(
        time, mark, old ? std::optional<int64_t>(old->timestamp) : std::nullopt, &mark_it);
    if (mark_it) dated->Add(family, qualifier, false, put.timestamp);
    result->push_back(Cell{family, qualifier, put.timestamp, put.value});
    m.mutations.push_back(std::move(put));
  }
  // Every timestamp is explicit now: the builder only checks and encodes.
  MutationBatchView view;
  view.Add(m);
  MutationBuilder builder(table, nullptr, max_cell_bytes, batch);
  ClockMarks none;
  HBEMU_RETURN_IF_ERROR(builder.Add(view[0], WriteTime{time.now, nullptr, 0}, &none));
  // HBase's Result is sorted by column (family, then qualifier), not in request order.
  std::stable_sort(result->begin(), result->end(), [](const Cell& a, const Cell& b) {
    return std::tie(a.family, a.qualifier) < std::tie(b.family, b.qualifier);
  });
  return Status::OK();
}

}  // namespace hbemu::storage
