#pragma once

#include <memory>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "storage/filter.h"

// Internal to storage/filter*.cc: every operation of the composite filters (FilterList, SKIP,
// WHILE) as a walk of the filter tree with an explicit stack of frames on the heap, so the
// depth of a client's filter never becomes depth of the thread's stack. Leaves are called
// directly; a composite's public methods start a walk and are never called from inside one of
// the same operation (FilterCell's OR asks a child's NextCellHint: a walk of its own).
namespace hbemu::storage {

struct FilterWalks {
  static std::unique_ptr<Filter> Clone(const Filter& root);
  static void Restart(Filter* root);
  static void Reset(Filter* root);
  static void SetReversed(Filter* root, bool reversed);
  static bool FilterRowKey(Filter* root, std::string_view row);
  static FilterCode FilterCell(Filter* root, const CellView& cell);
  static void TransformCell(const Filter& root, Cell* cell);
  static void FilterRowCells(Filter* root, std::vector<Cell>* cells);
  static bool FilterRow(Filter* root);
  static bool IsFamilyEssential(const Filter& root, std::string_view family);
  static bool NextCellHint(const Filter& root, const CellView& cell, std::string* family,
                           std::string* qualifier);
  static std::string ToString(const Filter& root);
  // Destroys these subtrees one node at a time (the composites' destructors).
  static void TearDown(std::vector<std::unique_ptr<Filter>> pending);

 private:
  template <typename Op>
  static typename Op::Result Walk(typename Op::Node root, Op& op);
  // The k-th child of a composite (null past the last).
  static const Filter* Child(const Filter* composite, size_t k);

  struct CloneOp;
  struct RestartOp;
  struct ResetOp;
  struct ReverseOp;
  struct RowKeyOp;
  struct CellOp;
  struct TransformOp;
  struct RowCellsOp;
  struct RowOp;
  struct EssentialOp;
  struct HintOp;
  struct ToStringOp;
};

namespace filter_walks {

// The frames of one walk. Each walk borrows a vector from a per-thread pool (walks of other
// operations may run inside it), so a call on a shallow filter allocates nothing.
template <typename Frame>
class FrameStack {
 public:
  FrameStack() {
    auto& pool = Pool();
    if (!pool.empty()) {
      frames_ = std::move(pool.back());
      pool.pop_back();
    }
  }
  ~FrameStack() {
    frames_.clear();
    if (frames_.capacity() <= kKeptFrames) Pool().push_back(std::move(frames_));
  }
  std::vector<Frame>& frames() { return frames_; }

 private:
  static constexpr size_t kKeptFrames = 64;  // deeper walks allocate per call
  static std::vector<std::vector<Frame>>& Pool() {
    static thread_local std::vector<std::vector<Frame>> pool;
    return pool;
  }
  std::vector<Frame> frames_;
};

// What an operation without an answer returns.
struct Unit {};

}  // namespace filter_walks

// Op: Node (Filter* or const Filter*), Result, State (per composite frame), and
//   Result Leaf(Node)            a leaf's own answer;
//   void Begin(Node, State*)     entering a composite;
//   Node Next(Node, State*)      the next child whose answer it needs, or null when it has all;
//   void Take(Node, State*, Result)  that child's answer;
//   Result Finish(Node, State*)  the composite's answer.
template <typename Op>
typename Op::Result FilterWalks::Walk(typename Op::Node root, Op& op) {
  if (root->shape_ == Filter::Shape::kLeaf) return op.Leaf(root);
  struct Frame {
    typename Op::Node node;
    typename Op::State state;
  };
  filter_walks::FrameStack<Frame> stack;
  std::vector<Frame>& frames = stack.frames();
  frames.push_back(Frame{root, {}});
  op.Begin(root, &frames.back().state);
  for (;;) {
    Frame& top = frames.back();
    const typename Op::Node child = op.Next(top.node, &top.state);
    if (child != nullptr) {
      if (child->shape_ == Filter::Shape::kLeaf) {
        op.Take(top.node, &top.state, op.Leaf(child));
      } else {
        frames.push_back(Frame{child, {}});  // `top` is not used past this point
        op.Begin(child, &frames.back().state);
      }
      continue;
    }
    typename Op::Result result = op.Finish(top.node, &top.state);
    frames.pop_back();
    if (frames.empty()) return result;
    Frame& parent = frames.back();
    op.Take(parent.node, &parent.state, std::move(result));
  }
}

}  // namespace hbemu::storage
