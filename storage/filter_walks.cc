#include "storage/filter_walks.h"

#include <utility>

namespace hbemu::storage {
namespace {

using filter_walks::Unit;

FilterList& AsList(Filter* f) { return static_cast<FilterList&>(*f); }
const FilterList& AsList(const Filter* f) { return static_cast<const FilterList&>(*f); }
SkipFilter& AsSkip(Filter* f) { return static_cast<SkipFilter&>(*f); }
WhileMatchFilter& AsWhile(Filter* f) { return static_cast<WhileMatchFilter&>(*f); }

}  // namespace

// ---------------------------------------------------------------- structure

struct FilterWalks::CloneOp {
  using Node = const Filter*;
  using Result = std::unique_ptr<Filter>;
  struct State {
    size_t i = 0;
    std::vector<std::unique_ptr<Filter>> copies;
  };
  Result Leaf(Node f) { return f->Clone(); }
  void Begin(Node, State*) {}
  Node Next(Node n, State* s) { return Child(n, s->i++); }
  void Take(Node, State* s, Result r) { s->copies.push_back(std::move(r)); }
  Result Finish(Node n, State* s) {
    std::unique_ptr<Filter> copy;
    switch (n->shape_) {
      case Filter::Shape::kList:
        copy = std::make_unique<FilterList>(AsList(n).op_, std::move(s->copies));
        break;
      case Filter::Shape::kSkip:
        copy = std::make_unique<SkipFilter>(std::move(s->copies.front()));
        break;
      default:
        copy = std::make_unique<WhileMatchFilter>(std::move(s->copies.front()));
        break;
    }
    // Each copy below already carries the flag: setting it again would walk the subtree.
    copy->reversed_ = n->reversed_;
    return copy;
  }
};

std::unique_ptr<Filter> FilterWalks::Clone(const Filter& root) {
  CloneOp op;
  return Walk(&root, op);
}

void FilterWalks::TearDown(std::vector<std::unique_ptr<Filter>> pending) {
  while (!pending.empty()) {
    std::unique_ptr<Filter> f = std::move(pending.back());
    pending.pop_back();
    if (f == nullptr) continue;
    switch (f->shape_) {
      case Filter::Shape::kList: {
        auto& children = AsList(f.get()).filters_;
        for (auto& child : children) pending.push_back(std::move(child));
        children.clear();
        break;
      }
      case Filter::Shape::kSkip:
        pending.push_back(std::move(AsSkip(f.get()).inner_));
        break;
      case Filter::Shape::kWhile:
        pending.push_back(std::move(AsWhile(f.get()).inner_));
        break;
      default:
        break;
    }
    // `f` goes here, its children already handed over.
  }
}

struct FilterWalks::ToStringOp {
  using Node = const Filter*;
  using Result = Unit;
  struct State {
    size_t i = 0;
  };
  std::string* out;
  Result Leaf(Node f) {
    *out += f->ToString();
    return {};
  }
  void Begin(Node n, State*) {
    switch (n->shape_) {
      case Filter::Shape::kList:
        *out += AsList(n).op_ == FilterList::Op::kAnd ? "AND(" : "OR(";
        break;
      case Filter::Shape::kSkip: *out += "SKIP("; break;
      default: *out += "WHILE("; break;
    }
  }
  Node Next(Node n, State* s) {
    if (s->i > 0 && n->shape_ == Filter::Shape::kList && s->i < AsList(n).filters_.size()) {
      *out += ", ";
    }
    return Child(n, s->i++);
  }
  void Take(Node, State*, Result) {}
  Result Finish(Node, State*) {
    *out += ")";
    return {};
  }
};

std::string FilterWalks::ToString(const Filter& root) {
  std::string out;
  ToStringOp op{&out};
  Walk(&root, op);
  return out;
}

// ---------------------------------------------------------------- memory

struct FilterWalks::BytesOp {
  using Node = const Filter*;
  using Result = size_t;
  struct State {
    size_t i = 0;
    size_t children = 0;
  };
  Result Leaf(Node f) { return f->HeldBytes(); }
  void Begin(Node, State*) {}
  Node Next(Node n, State* s) { return Child(n, s->i++); }
  void Take(Node, State* s, Result bytes) { s->children += bytes; }
  Result Finish(Node n, State* s) {
    switch (n->shape_) {
      case Filter::Shape::kList: {
        const FilterList& l = AsList(n);
        size_t prev = AllocationBytes(l.prev_.capacity() * sizeof(FilterList::Prev));
        for (const FilterList::Prev& p : l.prev_) {
          prev += StringHeapBytes(p.family) + StringHeapBytes(p.qualifier) +
                  StringHeapBytes(p.hint_family) + StringHeapBytes(p.hint_qualifier);
        }
        return s->children + AllocationBytes(sizeof(FilterList)) +
               AllocationBytes(l.filters_.capacity() * sizeof(void*)) +
               AllocationBytes(l.done_.capacity()) + prev +
               AllocationBytes(l.included_.capacity() / 8) +
               AllocationBytes(l.hinting_.capacity() * sizeof(size_t)) +
               AllocationBytes(l.asked_.capacity()) + StringHeapBytes(l.hint_family_) +
               StringHeapBytes(l.hint_qualifier_);
      }
      case Filter::Shape::kSkip:
        return s->children + AllocationBytes(sizeof(SkipFilter));
      default:
        return s->children + AllocationBytes(sizeof(WhileMatchFilter));
    }
  }
};

size_t FilterWalks::TreeBytes(const Filter& root) {
  BytesOp op;
  return Walk(&root, op);
}

// ---------------------------------------------------------------- state between rows

// Restart, Reset and SetReversed visit every child; what differs is the leaf call and what a
// composite does once its children are done.
struct FilterWalks::RestartOp {
  using Node = Filter*;
  using Result = Unit;
  struct State {
    size_t i = 0;
  };
  Result Leaf(Node f) {
    f->Restart();
    return {};
  }
  void Begin(Node, State*) {}
  Node Next(Node n, State* s) { return const_cast<Filter*>(Child(n, s->i++)); }
  void Take(Node, State*, Result) {}
  Result Finish(Node n, State*) {
    switch (n->shape_) {
      case Filter::Shape::kList: {
        FilterList& l = AsList(n);
        for (FilterList::Prev& p : l.prev_) p = FilterList::Prev();
        l.included_.assign(l.filters_.size(), false);
        l.hinting_.clear();
        l.RefreshAll();
        break;
      }
      case Filter::Shape::kSkip:
        AsSkip(n).filter_row_ = false;
        break;
      default: {
        WhileMatchFilter& w = AsWhile(n);
        w.done_ = false;
        w.inner_done_ = w.inner_->FilterAllRemaining();
        break;
      }
    }
    return {};
  }
};

void FilterWalks::Restart(Filter* root) {
  RestartOp op;
  Walk(root, op);
}

struct FilterWalks::ResetOp {
  using Node = Filter*;
  using Result = Unit;
  struct State {
    size_t i = 0;
  };
  Result Leaf(Node f) {
    f->Reset();
    return {};
  }
  void Begin(Node, State*) {}
  Node Next(Node n, State* s) { return const_cast<Filter*>(Child(n, s->i++)); }
  void Take(Node, State*, Result) {}
  Result Finish(Node n, State*) {
    switch (n->shape_) {
      case Filter::Shape::kList: {
        FilterList& l = AsList(n);
        // The columns and hints are read only while set: clearing the flags is enough, and
        // keeps the strings' buffers for the next row.
        for (FilterList::Prev& p : l.prev_) {
          p.set = false;
          p.has_hint = false;
        }
        l.included_.assign(l.filters_.size(), false);
        l.RefreshAll();
        break;
      }
      case Filter::Shape::kSkip:
        AsSkip(n).filter_row_ = false;
        break;
      default: {
        WhileMatchFilter& w = AsWhile(n);  // done_ stays: WHILE ends the scan for good
        w.inner_done_ = w.inner_->FilterAllRemaining();
        break;
      }
    }
    return {};
  }
};

void FilterWalks::Reset(Filter* root) {
  ResetOp op;
  Walk(root, op);
}

struct FilterWalks::ReverseOp {
  using Node = Filter*;
  using Result = Unit;
  struct State {
    size_t i = 0;
  };
  bool reversed;
  Result Leaf(Node f) {
    f->SetReversed(reversed);
    return {};
  }
  void Begin(Node n, State*) { n->reversed_ = reversed; }
  Node Next(Node n, State* s) { return const_cast<Filter*>(Child(n, s->i++)); }
  void Take(Node, State*, Result) {}
  Result Finish(Node n, State*) {
    if (n->shape_ == Filter::Shape::kList) AsList(n).RefreshAll();
    if (n->shape_ == Filter::Shape::kWhile) {
      AsWhile(n).inner_done_ = AsWhile(n).inner_->FilterAllRemaining();
    }
    return {};
  }
};

void FilterWalks::SetReversed(Filter* root, bool reversed) {
  ReverseOp op{reversed};
  Walk(root, op);
}

}  // namespace hbemu::storage
