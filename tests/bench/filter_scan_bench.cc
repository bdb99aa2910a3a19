// Filtered vs unfiltered scan cost over the same data (not a test; not in CTest).
//   build/tests/filter_scan_bench [rows]      (default 200000)
// Loads `rows` rows of three columns into an in-memory store, then times full-table scans:
// unfiltered, a selective ValueFilter, a selective SingleColumnValueFilter, a PrefixFilter
// row filter, and three composites (AND, OR inside AND, WHILE over SKIP); each is the best of a
// few runs. Prints each cost and its ratio to unfiltered.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "storage/filter_parser.h"
#include "storage/store.h"

using namespace hbemu::storage;

namespace {

void Check(const Status& s, const char* what) {
  if (!s.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
    std::exit(1);
  }
}

struct Run {
  double seconds;
  size_t rows;
  size_t cells;
};

Run ScanOnce(Store* store, const std::string& filter) {
  ScanSpec spec;
  if (!filter.empty()) Check(ParseFilterString(filter, &spec.read.filter), "parse");
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Scanner> scanner;
  Check(store->OpenScanner("bench", spec, &scanner), "open");
  Run run{0, 0, 0};
  std::vector<RowResult> batch;
  for (;;) {
    batch.clear();
    Check(scanner->Next(1000, &batch), "next");
    if (batch.empty()) break;
    run.rows += batch.size();
    for (const auto& r : batch) run.cells += r.cells.size();
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

Run Best(Store* store, const std::string& filter) {
  Run best = ScanOnce(store, filter);
  for (int i = 0; i < 4; ++i) {
    Run r = ScanOnce(store, filter);
    if (r.seconds < best.seconds) best = r;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 200000;
  StoreOptions options;
  options.in_memory = true;
  std::unique_ptr<Store> store;
  Check(Store::Open(options, &store), "open store");
  FamilyDescriptor f;
  f.name = "f";
  f.max_versions = 3;
  Check(store->CreateTable("bench", {f}), "create");
  char key[32];
  for (int i = 0; i < rows; ++i) {
    std::snprintf(key, sizeof(key), "user%08d", i);
    RowMutation m;
    m.row = key;
    m.mutations.push_back({MutationType::kPut, "f", "name", 1, "file-" + std::to_string(i)});
    m.mutations.push_back({MutationType::kPut, "f", "category", 1,
                           i % 1000 == 0 ? "rare" : (i % 2 ? "doc" : "img")});
    m.mutations.push_back({MutationType::kPut, "f", "size", 1, std::string(40, 'x')});
    Check(store->Mutate("bench", m), "put");
  }
  Check(store->CompactTable("bench"), "compact");

  const Run base = Best(store.get(), "");
  std::printf("rows=%d cells=%zu\n", rows, base.cells);
  std::printf("%-66s %8.1f ms  rows=%-7zu ratio=1.00\n", "unfiltered", base.seconds * 1e3,
              base.rows);
  for (const char* filter :
       {"ValueFilter(=, 'binary:rare')",
        "SingleColumnValueFilter('f', 'category', =, 'binary:rare', true, true)",
        "ValueFilter(=, 'regexstring:^rare$')", "PrefixFilter('user0001')",
        // Lists and wrappers: what evaluating a composite costs per cell.
        "PrefixFilter('user') AND ValueFilter(=, 'binary:rare')",
        "(ValueFilter(=, 'binary:rare') OR ValueFilter(=, 'binary:img')) AND "
        "QualifierFilter(=, 'binary:category')",
        "WHILE SKIP ValueFilter(!=, 'binary:none')"}) {
    const Run r = Best(store.get(), filter);
    std::printf("%-66s %8.1f ms  rows=%-7zu ratio=%.2f\n", filter, r.seconds * 1e3, r.rows,
                r.seconds / base.seconds);
  }
  return 0;
}
