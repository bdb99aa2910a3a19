#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "Hbase.h"

// Thrift1's mutateRows / mutateRowsTs arguments as views. The generated code decodes a
// 1,000-row call into 1,000 BatchMutation structs of 3-4 strings each, which the handler then
// copied again into storage's mutations and freed: a third of the call's server time.
// Read straight from the request, every row, column and value is a view into the message.
namespace hbemu::server {

class BatchMutationsView {
 public:
  struct Mutation {
    bool is_delete = false;
    std::string_view column;
    std::string_view value;
  };

  void Clear() {
    rows_.clear();
    mutations_.clear();
  }
  // Starts a row; the mutations added next belong to it.
  void AddRow(std::string_view row) { rows_.push_back(Row{row, mutations_.size()}); }
  void AddMutation(const Mutation& m) { mutations_.push_back(m); }
  // For a decoder meeting a struct's fields in any order, or one field twice (the last wins).
  void SetLastRow(std::string_view row) { rows_.back().row = row; }
  void DropMutationsOfLastRow() { mutations_.resize(rows_.back().first); }
  void Reserve(size_t rows) { rows_.reserve(rows); }
  // Views of generated structs, which must outlive this.
  void Assign(const std::vector<thrift::BatchMutation>& batches);

  size_t size() const { return rows_.size(); }
  std::string_view row(size_t i) const { return rows_[i].row; }
  const Mutation* begin(size_t i) const { return mutations_.data() + rows_[i].first; }
  const Mutation* end(size_t i) const {
    return mutations_.data() + (i + 1 < rows_.size() ? rows_[i + 1].first : mutations_.size());
  }

 private:
  struct Row {
    std::string_view row;
    size_t first;  // into mutations_
  };
  std::vector<Row> rows_;
  std::vector<Mutation> mutations_;
};

// Takes the rows of a mutateRows call one at a time instead of having them kept: for a call
// whose table cannot take them, so they are only checked and counted.
class BatchRowSink {
 public:
  virtual ~BatchRowSink() = default;
  // The rows field starts; a repeated one replaces the rows before it, as in the generated code.
  virtual void Restart() = 0;
  virtual void AddRow(std::string_view row, const BatchMutationsView::Mutation* begin,
                      const BatchMutationsView::Mutation* end) = 0;
};

// Asked with the table when the rows field starts (once the table is known) and again if the
// table field comes after that: the sink for the rows, or nullptr to keep them in the view.
using BatchRowSinkFor = std::function<BatchRowSink*(std::string_view table)>;

// What mutateRows and mutateRowsTs carry (timestamp stays 0 for mutateRows, whose handler
// uses the server's time).
struct MutateRowsArgsView {
  std::string_view table;
  BatchMutationsView rows;
  int64_t timestamp = 0;
  std::map<std::string, std::string> attributes;
};

// The input protocol WireSession gives the processor for binary calls: a TMemoryBuffer that
// holds the whole message, so a string's bytes can be borrowed instead of copied.
using BinaryCallProtocol =
    apache::thrift::protocol::TBinaryProtocolT<apache::thrift::transport::TMemoryBuffer>;

// Reads the arguments of mutateRows (`with_timestamp` false) or mutateRowsTs as the generated
// Hbase_mutateRows(Ts)_args::read does (unknown fields and fields of another type skipped,
// absent fields left at their defaults, the protocol's container limits applied),
// with views into `in`'s buffer, which must stay untouched while *out is used.
// With `sink_for`, rows it gives a sink for go there one by one and out->rows stays empty; a
// table field naming a table that takes the rows after they went to a sink cannot be honoured
// and fails as undecodable (TProtocolException).
void ReadMutateRowsArgs(BinaryCallProtocol* in, bool with_timestamp, MutateRowsArgsView* out,
                        const BatchRowSinkFor& sink_for = nullptr);

}  // namespace hbemu::server
