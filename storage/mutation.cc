#include "storage/mutation.h"

namespace hbemu::storage {

void MutationBatchView::Add(const RowMutation& row) {
  AddRow(row.row, row.cell_ttl_ms);
  for (const ColumnMutation& c : row.mutations) {
    AddColumn(ColumnMutationView{c.type, c.family, c.qualifier, c.timestamp, c.value});
  }
}

}  // namespace hbemu::storage
