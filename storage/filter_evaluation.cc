#include <initializer_list>
#include <utility>

#include "storage/filter_walks.h"

// The per-row operations of the composite filters (filterRowKey, filterCell, transformCell,
// filterRowCells, filterRow) and the per-scan ones (isFamilyEssential, getNextCellHint), with
// FilterListWithAND/OR's rules, each as a walk (storage/filter_walks.h).
namespace hbemu::storage {
namespace {

using filter_walks::Unit;
using C = FilterCode;

// Numbers each FilterCell walk from a root on this thread: a list's hint cache is for the walk
// it was filled in (FilterList::hint_walk_), never 0.
thread_local uint64_t t_cell_walk = 0;

bool IsInclude(C c) {
  return c == C::kInclude || c == C::kIncludeAndNextCol || c == C::kIncludeAndSeekNextRow;
}

bool In(C c, std::initializer_list<C> set) {
  for (C s : set) {
    if (c == s) return true;
  }
  return false;
}

// FilterListWithAND.mergeReturnCode.
C MergeAnd(C rc, C local) {
  if (rc == C::kSeekNextUsingHint) return C::kSeekNextUsingHint;
  switch (local) {
    case C::kSeekNextUsingHint: return C::kSeekNextUsingHint;
    case C::kInclude: return rc;
    case C::kIncludeAndNextCol:
      if (In(rc, {C::kInclude, C::kIncludeAndNextCol})) return C::kIncludeAndNextCol;
      if (rc == C::kIncludeAndSeekNextRow) return C::kIncludeAndSeekNextRow;
      if (In(rc, {C::kSkip, C::kNextCol})) return C::kNextCol;
      return C::kNextRow;
    case C::kIncludeAndSeekNextRow:
      if (IsInclude(rc)) return C::kIncludeAndSeekNextRow;
      return C::kNextRow;
    case C::kSkip:
      if (In(rc, {C::kInclude, C::kSkip})) return C::kSkip;
      if (In(rc, {C::kIncludeAndNextCol, C::kNextCol})) return C::kNextCol;
      return C::kNextRow;
    case C::kNextCol:
      if (In(rc, {C::kIncludeAndSeekNextRow, C::kNextRow})) return C::kNextRow;
      return C::kNextCol;
    case C::kNextRow: return C::kNextRow;
  }
  return local;
}

// FilterListWithOR.mergeReturnCode.
C MergeOr(bool has_rc, C rc, C local) {
  if (!has_rc) return local;
  switch (local) {
    case C::kInclude: return C::kInclude;
    case C::kIncludeAndNextCol:
      if (In(rc, {C::kInclude, C::kSkip, C::kSeekNextUsingHint})) return C::kInclude;
      return C::kIncludeAndNextCol;
    case C::kIncludeAndSeekNextRow:
      if (In(rc, {C::kInclude, C::kSkip, C::kSeekNextUsingHint})) return C::kInclude;
      if (In(rc, {C::kIncludeAndNextCol, C::kNextCol})) return C::kIncludeAndNextCol;
      return C::kIncludeAndSeekNextRow;
    case C::kSkip:
      if (IsInclude(rc)) return C::kInclude;
      return C::kSkip;
    case C::kNextCol:
      if (rc == C::kInclude) return C::kInclude;
      if (In(rc, {C::kNextCol, C::kNextRow})) return C::kNextCol;
      if (In(rc, {C::kIncludeAndNextCol, C::kIncludeAndSeekNextRow})) return C::kIncludeAndNextCol;
      return C::kSkip;
    case C::kNextRow:
      if (In(rc, {C::kSkip, C::kSeekNextUsingHint})) return C::kSkip;
      return rc;
    case C::kSeekNextUsingHint:
      if (IsInclude(rc)) return C::kInclude;
      if (In(rc, {C::kSkip, C::kNextCol, C::kNextRow})) return C::kSkip;
      return C::kSeekNextUsingHint;
  }
  return local;
}

int CompareColumn(std::string_view f1, std::string_view q1, std::string_view f2,
                  std::string_view q2) {
  const int c = f1.compare(f2);
  return c != 0 ? c : q1.compare(q2);
}


FilterList& AsList(Filter* f) { return static_cast<FilterList&>(*f); }
const FilterList& AsList(const Filter* f) { return static_cast<const FilterList&>(*f); }
SkipFilter& AsSkip(Filter* f) { return static_cast<SkipFilter&>(*f); }
WhileMatchFilter& AsWhile(Filter* f) { return static_cast<WhileMatchFilter&>(*f); }

}  // namespace

// ---------------------------------------------------------------- filterRowKey

struct FilterWalks::RowKeyOp {
  using Node = Filter*;
  using Result = bool;
  struct State {
    size_t i = 0;
    bool drop = false;
    bool asked = false;  // SKIP/WHILE: the wrapped filter has been asked (or need not be)
  };
  std::string_view row;

  Result Leaf(Node f) { return f->FilterRowKey(row); }
  void Begin(Node n, State* s) {
    if (n->shape_ == Filter::Shape::kList) {
      s->drop = AsList(n).op_ == FilterList::Op::kOr;
    } else if (n->shape_ == Filter::Shape::kSkip) {
      s->asked = true;  // SKIP keeps the row key from the wrapped filter
    } else if (AsWhile(n).FilterAllRemaining()) {
      s->drop = true;
      s->asked = true;
    }
  }
  // Every sub-filter still going sees the row key (PrefixFilter tracks the row there): no
  // early exit.
  Node Next(Node n, State* s) {
    if (n->shape_ != Filter::Shape::kList) {
      if (s->asked) return nullptr;
      s->asked = true;
      return AsWhile(n).inner_.get();
    }
    FilterList& l = AsList(n);
    while (s->i < l.filters_.size() && l.done_[s->i]) {
      if (l.op_ == FilterList::Op::kAnd) s->drop = true;
      ++s->i;
    }
    return s->i < l.filters_.size() ? l.filters_[s->i].get() : nullptr;
  }
  void Take(Node n, State* s, Result drop) {
    if (n->shape_ != Filter::Shape::kList) {
      WhileMatchFilter& w = AsWhile(n);
      w.inner_done_ = w.inner_->FilterAllRemaining();
      w.done_ = w.done_ || drop;
      s->drop = drop;
      return;
    }
    FilterList& l = AsList(n);
    if (l.op_ == FilterList::Op::kAnd ? drop : !drop) s->drop = drop;
    l.Refresh(s->i++);
  }
  Result Finish(Node n, State* s) {
    if (n->shape_ == Filter::Shape::kList && AsList(n).filters_.empty()) return false;
    return s->drop;
  }
};

bool FilterWalks::FilterRowKey(Filter* root, std::string_view row) {
  RowKeyOp op{row};
  return Walk(root, op);
}

// ---------------------------------------------------------------- filterCell

struct FilterWalks::CellOp {
  using Node = Filter*;
  using Result = C;
  struct State {
    size_t i = 0;
    C rc = C::kInclude;
    bool has_rc = false;      // OR: some sub-filter answered
    bool every_hint = true;   // OR: every answer so far is a seek hint
    bool decided = false;     // the answer is known before the last child
  };
  const CellView& cell;
  const uint64_t walk;  // t_cell_walk of this walk

  // A sub-filter's hint for this cell: a list that answered in this walk has it already.
  bool ChildHint(const Filter* child, std::string* family, std::string* qualifier) const {
    if (child->shape_ == Filter::Shape::kList) {
      const FilterList& l = AsList(child);
      if (l.hint_walk_ == walk) {
        if (!l.hint_found_) return false;
        *family = l.hint_family_;
        *qualifier = l.hint_qualifier_;
        return true;
      }
    }
    return child->NextCellHint(cell, family, qualifier);
  }
  // The list's hint after it answered kSeekNextUsingHint, as HintOp works it out: AND the
  // furthest of the sub-filters that gave one, OR the nearest, and only when every sub-filter
  // still going has one.
  void CacheHint(FilterList& l) const {
    l.hint_walk_ = walk;
    l.hint_found_ = false;
    const bool furthest = l.op_ == FilterList::Op::kAnd;
    std::string family, qualifier;
    const auto offer = [&](std::string& f, std::string& q) {
      const int c = CompareColumn(f, q, l.hint_family_, l.hint_qualifier_);
      if (!l.hint_found_ || (furthest ? c > 0 : c < 0)) {
        l.hint_family_.swap(f);
        l.hint_qualifier_.swap(q);
        l.hint_found_ = true;
      }
    };
    if (furthest) {
      for (size_t i : l.hinting_) {
        if (ChildHint(l.filters_[i].get(), &family, &qualifier)) offer(family, qualifier);
      }
      return;
    }
    for (size_t i = 0; i < l.filters_.size(); ++i) {
      if (l.done_[i]) continue;
      FilterList::Prev& prev = l.prev_[i];
      if (!prev.has_hint) {  // someone needs the cells in between
        l.hint_found_ = false;
        return;
      }
      if (l.asked_[i]) {  // its hint for this cell is in prev
        family = prev.hint_family;
        qualifier = prev.hint_qualifier;
        offer(family, qualifier);
      } else if (l.filters_[i]->NextCellHint(cell, &family, &qualifier)) {
        offer(family, qualifier);
      }
    }
  }

  Result Leaf(Node f) { return f->FilterCell(cell); }
  void Begin(Node n, State* s) {
    if (n->shape_ != Filter::Shape::kList) return;
    FilterList& l = AsList(n);
    if (l.op_ == FilterList::Op::kAnd) {
      l.hinting_.clear();
    } else {
      s->rc = C::kSkip;
    }
    if (l.filters_.empty()) {
      s->rc = C::kInclude;
      s->decided = true;
    }
  }
  Node Next(Node n, State* s) {
    if (s->decided) return nullptr;
    switch (n->shape_) {
      case Filter::Shape::kSkip: return s->i++ == 0 ? AsSkip(n).inner_.get() : nullptr;
      case Filter::Shape::kWhile: return s->i++ == 0 ? AsWhile(n).inner_.get() : nullptr;
      default: break;
    }
    FilterList& l = AsList(n);
    if (l.op_ == FilterList::Op::kAnd) {
      if (s->i == l.filters_.size()) return nullptr;
      if (l.done_[s->i]) {
        s->rc = C::kNextRow;
        s->decided = true;
        return nullptr;
      }
      return l.filters_[s->i].get();
    }
    // OR: a sub-filter whose last answer still covers this cell is not asked again
    // (FilterListWithOR.calculateReturnCodeByPrevCellAndRC).
    for (; s->i < l.filters_.size(); ++s->i) {
      const size_t i = s->i;
      l.included_[i] = false;
      l.asked_[i] = 0;
      if (l.done_[i]) continue;
      FilterList::Prev& prev = l.prev_[i];
      bool known = false;
      C local = C::kSkip;
      if (prev.set) {
        switch (prev.code) {
          case C::kSeekNextUsingHint:
            if (prev.has_hint && CompareColumn(cell.family, cell.qualifier, prev.hint_family,
                                               prev.hint_qualifier) < 0) {
              known = true;
              local = C::kSeekNextUsingHint;
            }
            break;
          case C::kNextCol:
          case C::kIncludeAndNextCol:
            if (cell.family == prev.family && cell.qualifier == prev.qualifier) {
              known = true;
              local = C::kNextCol;
            }
            break;
          case C::kNextRow:
          case C::kIncludeAndSeekNextRow:
            if (cell.family == prev.family) {
              known = true;
              local = C::kNextRow;
            }
            break;
          default:
            break;
        }
      }
      if (!known) return l.filters_[i].get();
      // HBase records the derived answer as the new "previous" one, for the same cell column.
      prev.code = local;
      MergeOrAnswer(l, s, local);
    }
    return nullptr;
  }
  void Take(Node n, State* s, Result local) {
    switch (n->shape_) {
      case Filter::Shape::kSkip:
        if (local != C::kInclude) AsSkip(n).filter_row_ = true;
        s->rc = local;
        return;
      case Filter::Shape::kWhile: {
        WhileMatchFilter& w = AsWhile(n);
        w.inner_done_ = w.inner_->FilterAllRemaining();
        w.done_ = w.done_ || local != C::kInclude;
        s->rc = local;
        return;
      }
      default:
        break;
    }
    FilterList& l = AsList(n);
    const size_t i = s->i;
    l.Refresh(i);
    if (l.op_ == FilterList::Op::kAnd) {
      if (local == C::kSeekNextUsingHint) l.hinting_.push_back(i);
      s->rc = MergeAnd(s->rc, local);
      // Later sub-filters only see cells the earlier ones include (HBASE-20565).
      if (!IsInclude(s->rc)) s->decided = true;
      ++s->i;
      return;
    }
    FilterList::Prev& prev = l.prev_[i];
    prev.code = local;
    prev.set = !(local == C::kInclude || local == C::kSkip);
    if (prev.set) {
      prev.family.assign(cell.family.data(), cell.family.size());
      prev.qualifier.assign(cell.qualifier.data(), cell.qualifier.size());
      prev.has_hint = local == C::kSeekNextUsingHint &&
                      ChildHint(l.filters_[i].get(), &prev.hint_family, &prev.hint_qualifier);
    }
    l.asked_[i] = 1;
    MergeOrAnswer(l, s, local);
    ++s->i;
  }
  Result Finish(Node n, State* s) {
    if (n->shape_ != Filter::Shape::kList) return s->rc;
    FilterList& l = AsList(n);
    const C rc = ListAnswer(l, s);
    if (rc == C::kSeekNextUsingHint) CacheHint(l);
    return rc;
  }
  static C ListAnswer(const FilterList& l, const State* s) {
    if (s->decided) return s->rc;
    if (l.op_ == FilterList::Op::kAnd) {
      return l.hinting_.empty() ? s->rc : C::kSeekNextUsingHint;
    }
    if (s->every_hint && s->has_rc) return C::kSeekNextUsingHint;
    if (!s->has_rc) return C::kSkip;  // every sub-filter is done
    return s->rc;
  }
  static void MergeOrAnswer(FilterList& l, State* s, C local) {
    if (local != C::kSeekNextUsingHint) s->every_hint = false;
    s->rc = MergeOr(s->has_rc, s->rc, local);
    s->has_rc = true;
    if (IsInclude(local)) l.included_[s->i] = true;
  }
};

FilterCode FilterWalks::FilterCell(Filter* root, const CellView& cell) {
  CellOp op{cell, ++t_cell_walk};
  return Walk(root, op);
}

// ---------------------------------------------------------------- transformCell

struct FilterWalks::TransformOp {
  using Node = const Filter*;
  using Result = Unit;
  struct State {
    size_t i = 0;
  };
  Cell* cell;

  Result Leaf(Node f) {
    f->TransformCell(cell);
    return {};
  }
  void Begin(Node, State*) {}
  // AND: every sub-filter; OR: those that included the cell.
  Node Next(Node n, State* s) {
    if (n->shape_ == Filter::Shape::kList) {
      const FilterList& l = AsList(n);
      while (s->i < l.filters_.size() && l.op_ == FilterList::Op::kOr && !l.included_[s->i]) {
        ++s->i;
      }
    }
    return Child(n, s->i++);
  }
  void Take(Node, State*, Result) {}
  Result Finish(Node, State*) { return {}; }
};

void FilterWalks::TransformCell(const Filter& root, Cell* cell) {
  TransformOp op{cell};
  Walk(&root, op);
}

// ---------------------------------------------------------------- filterRowCells, filterRow

struct FilterWalks::RowCellsOp {
  using Node = Filter*;
  using Result = Unit;
  struct State {
    size_t i = 0;
  };
  std::vector<Cell>* cells;

  Result Leaf(Node f) {
    f->FilterRowCells(cells);
    return {};
  }
  void Begin(Node, State*) {}
  // SKIP and WHILE do not forward it (HBase's SkipFilter/WhileMatchFilter).
  Node Next(Node n, State* s) {
    if (n->shape_ != Filter::Shape::kList) return nullptr;
    const auto& children = AsList(n).filters_;
    return s->i < children.size() ? children[s->i].get() : nullptr;
  }
  void Take(Node n, State* s, Result) { AsList(n).Refresh(s->i++); }
  Result Finish(Node, State*) { return {}; }
};

void FilterWalks::FilterRowCells(Filter* root, std::vector<Cell>* cells) {
  RowCellsOp op{cells};
  Walk(root, op);
}

struct FilterWalks::RowOp {
  using Node = Filter*;
  using Result = bool;
  struct State {
    size_t i = 0;
    bool drop = false;
    bool decided = false;
  };

  Result Leaf(Node f) { return f->FilterRow(); }
  void Begin(Node n, State* s) {
    if (n->shape_ == Filter::Shape::kSkip) {
      s->drop = AsSkip(n).filter_row_;
      s->decided = true;
    } else if (n->shape_ == Filter::Shape::kList) {
      const FilterList& l = AsList(n);
      s->drop = !l.filters_.empty() && l.op_ == FilterList::Op::kOr;
      s->decided = l.filters_.empty();
    }
  }
  // Asked in list order, stopping at the first decisive answer: this is why
  // "SingleColumnValueFilter AND PageFilter" counts only matching rows.
  Node Next(Node n, State* s) {
    if (s->decided) return nullptr;
    return const_cast<Filter*>(Child(n, s->i));
  }
  void Take(Node n, State* s, Result drop) {
    if (n->shape_ == Filter::Shape::kWhile) {
      WhileMatchFilter& w = AsWhile(n);
      w.inner_done_ = w.inner_->FilterAllRemaining();
      w.done_ = w.done_ || drop;
      s->drop = drop;
      s->decided = true;
      return;
    }
    FilterList& l = AsList(n);
    l.Refresh(s->i++);
    if (l.op_ == FilterList::Op::kAnd ? drop : !drop) {
      s->drop = drop;
      s->decided = true;
    }
  }
  Result Finish(Node, State* s) { return s->drop; }
};

bool FilterWalks::FilterRow(Filter* root) {
  RowOp op;
  return Walk(root, op);
}

// ---------------------------------------------------------------- once per scan or seek

// FilterListBase: a family is essential if any sub-filter needs it (an empty list needs all).
struct FilterWalks::EssentialOp {
  using Node = const Filter*;
  using Result = bool;
  struct State {
    size_t i = 0;
    bool essential = false;
  };
  std::string_view family;

  Result Leaf(Node f) { return f->IsFamilyEssential(family); }
  void Begin(Node n, State* s) {
    s->essential = n->shape_ == Filter::Shape::kList && AsList(n).filters_.empty();
  }
  Node Next(Node n, State* s) { return s->essential ? nullptr : Child(n, s->i++); }
  void Take(Node, State* s, Result essential) { s->essential = essential; }
  Result Finish(Node, State* s) { return s->essential; }
};

bool FilterWalks::IsFamilyEssential(const Filter& root, std::string_view family) {
  EssentialOp op{family};
  return Walk(&root, op);
}

// After kSeekNextUsingHint: AND seeks to the furthest hint of the sub-filters that gave one,
// OR to the nearest, and only when every sub-filter still going has one. SKIP and WHILE give
// none (HBase's wrappers do not forward getNextCellHint).
struct FilterWalks::HintOp {
  using Node = const Filter*;
  struct Result {
    bool found = false;
    std::string family, qualifier;
  };
  struct State {
    size_t i = 0;
    bool failed = false;
    Result best;
  };
  const CellView& cell;

  Result Leaf(Node f) {
    Result r;
    r.found = f->NextCellHint(cell, &r.family, &r.qualifier);
    return r;
  }
  void Begin(Node, State*) {}
  Node Next(Node n, State* s) {
    if (n->shape_ != Filter::Shape::kList || s->failed) return nullptr;
    const FilterList& l = AsList(n);
    if (l.op_ == FilterList::Op::kAnd) {
      return s->i < l.hinting_.size() ? l.filters_[l.hinting_[s->i]].get() : nullptr;
    }
    while (s->i < l.filters_.size() && l.done_[s->i]) ++s->i;
    if (s->i == l.filters_.size()) return nullptr;
    if (!l.prev_[s->i].has_hint) {  // someone needs the cells in between
      s->failed = true;
      return nullptr;
    }
    return l.filters_[s->i].get();
  }
  void Take(Node n, State* s, Result r) {
    ++s->i;
    if (!r.found) return;
    const bool furthest = AsList(n).op_ == FilterList::Op::kAnd;
    const int c = CompareColumn(r.family, r.qualifier, s->best.family, s->best.qualifier);
    if (!s->best.found || (furthest ? c > 0 : c < 0)) s->best = std::move(r);
  }
  Result Finish(Node, State* s) { return s->failed ? Result() : std::move(s->best); }
};

bool FilterWalks::NextCellHint(const Filter& root, const CellView& cell, std::string* family,
                               std::string* qualifier) {
  if (root.shape_ == Filter::Shape::kList) {
    // Right after the root list answered this cell, its hint is known.
    const FilterList& l = AsList(&root);
    if (l.hint_walk_ == t_cell_walk) {
      if (!l.hint_found_) return false;
      *family = l.hint_family_;
      *qualifier = l.hint_qualifier_;
      return true;
    }
  }
  HintOp op{cell};
  HintOp::Result r = Walk(&root, op);
  if (!r.found) return false;
  *family = std::move(r.family);
  *qualifier = std::move(r.qualifier);
  return true;
}

}  // namespace hbemu::storage
