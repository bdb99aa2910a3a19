#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
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
  static size_t TreeBytes(const Filter& root);
  // A composite's constructor: one level more than its highest child (leaves are 0).
  static void SetHeight(Filter* composite) {
    composite->height_ = 0;
    for (size_t k = 0; const Filter* child = Child(composite, k); ++k) {
      composite->height_ = std::max(composite->height_, child->height_ + 1);
    }
  }
  // Destroys these subtrees one node at a time (the composites' destructors).
  static void TearDown(std::vector<std::unique_ptr<Filter>> pending);

 private:
  template <typename Op>
  static typename Op::Result Walk(typename Op::Node root, Op& op);
  template <typename Op>
  static typename Op::Result Recurse(typename Op::Node node, Op& op);
  // Trees up to this high are walked recursively (a few KiB of stack at most).
  static constexpr uint32_t kRecursiveHeight = 8;
  // The k-th child of a composite (null past the last).
  static const Filter* Child(const Filter* composite, size_t k) {
    switch (composite->shape_) {
      case Filter::Shape::kList: {
        const auto& children = static_cast<const FilterList*>(composite)->filters_;
        return k < children.size() ? children[k].get() : nullptr;
      }
      case Filter::Shape::kSkip:
        return k == 0 ? static_cast<const SkipFilter*>(composite)->inner_.get() : nullptr;
      case Filter::Shape::kWhile:
        return k == 0 ? static_cast<const WhileMatchFilter*>(composite)->inner_.get() : nullptr;
      default:
        return nullptr;
    }
  }

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
  struct BytesOp;
};

namespace filter_walks {

// The frames of one walk: the first kInline on the caller's stack (a constant, whatever the
// depth), deeper ones in a vector on the heap, borrowed from a per-thread pool. Most filters
// are a level or two deep, and a walk of them allocates nothing.
template <typename Frame>
class FrameStack {
 public:
  FrameStack() = default;
  FrameStack(const FrameStack&) = delete;
  FrameStack& operator=(const FrameStack&) = delete;
  ~FrameStack() {
    while (size_ > 0) pop();
    // The heap part's capacity goes back to this thread's pool, so a deep filter does not
    // grow a vector frame by frame at every call.
    if (deeper_.capacity() > 0 && deeper_.capacity() <= kKeptFrames) {
      Pool().push_back(std::move(deeper_));
    }
  }
  bool empty() const { return size_ == 0; }
  Frame& top() { return size_ <= kInline ? Inline(size_ - 1) : deeper_[size_ - kInline - 1]; }
  // A frame for `node` with a fresh state.
  Frame& push(decltype(Frame::node) node) {
    Frame* f;
    if (size_ < kInline) {
      f = new (&inline_[size_]) Frame();
      f->node = node;
    } else {
      if (deeper_.capacity() == 0 && !Pool().empty()) {
        deeper_ = std::move(Pool().back());
        Pool().pop_back();
      }
      f = &deeper_.emplace_back();
      f->node = node;
    }
    ++size_;
    return *f;
  }
  void pop() {
    if (size_ > kInline) {
      deeper_.pop_back();
    } else {
      Inline(size_ - 1).~Frame();
    }
    --size_;
  }

 private:
  static constexpr size_t kInline = 8;
  // Enough for the default filter_depth; a thread keeps at most a few such vectors per
  // operation (walks of other operations run inside one), tens of KiB.
  static constexpr size_t kKeptFrames = 1024;
  static std::vector<std::vector<Frame>>& Pool() {
    static thread_local std::vector<std::vector<Frame>> pool;
    return pool;
  }
  Frame& Inline(size_t i) { return *std::launder(reinterpret_cast<Frame*>(&inline_[i])); }
  std::aligned_storage_t<sizeof(Frame), alignof(Frame)> inline_[kInline];
  std::vector<Frame> deeper_;
  size_t size_ = 0;
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
// A filter at most kRecursiveHeight levels high is walked by plain recursion through the same
// hooks (faster: no frame bookkeeping), which bounds that recursion by a constant.
template <typename Op>
typename Op::Result FilterWalks::Recurse(typename Op::Node node, Op& op) {
  if (node->shape_ == Filter::Shape::kLeaf) return op.Leaf(node);
  typename Op::State state{};
  op.Begin(node, &state);
  while (const typename Op::Node child = op.Next(node, &state)) {
    op.Take(node, &state,
            child->shape_ == Filter::Shape::kLeaf ? op.Leaf(child) : Recurse(child, op));
  }
  return op.Finish(node, &state);
}

template <typename Op>
typename Op::Result FilterWalks::Walk(typename Op::Node root, Op& op) {
  if (root->height_ <= kRecursiveHeight) return Recurse(root, op);
  struct Frame {
    typename Op::Node node;
    typename Op::State state;
  };
  filter_walks::FrameStack<Frame> frames;
  op.Begin(root, &frames.push(root).state);
  for (;;) {
    Frame& top = frames.top();
    const typename Op::Node child = op.Next(top.node, &top.state);
    if (child != nullptr) {
      if (child->shape_ == Filter::Shape::kLeaf) {
        op.Take(top.node, &top.state, op.Leaf(child));
      } else {
        op.Begin(child, &frames.push(child).state);  // `top` is not used past this point
      }
      continue;
    }
    typename Op::Result result = op.Finish(top.node, &top.state);
    frames.pop();
    if (frames.empty()) return result;
    Frame& parent = frames.top();
    op.Take(parent.node, &parent.state, std::move(result));
  }
}

}  // namespace hbemu::storage
