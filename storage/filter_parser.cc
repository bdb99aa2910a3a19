#include "storage/filter_parser.h"

#include <algorithm>
#include <string>
#include <vector>

#include "storage/filters.h"

namespace hbemu::storage {
namespace {

enum class Op { kLParen, kAnd, kOr, kSkip, kWhile };

// Lower binds tighter (ParseFilter's precedence map).
int Precedence(Op op) {
  switch (op) {
    case Op::kSkip:
    case Op::kWhile: return 1;
    case Op::kAnd: return 2;
    case Op::kOr: return 3;
    case Op::kLParen: return 4;
  }
  return 4;
}

bool IsUnary(Op op) { return op == Op::kSkip || op == Op::kWhile; }

// HBase's message for a string it cannot parse, then which limit and how to raise it.
Status LimitError(const std::string& what, const char* limit, int64_t value) {
  return Status::InvalidArgument("Incorrect Filter String: " + what + " (limit " + limit + "=" +
                                 std::to_string(value) + "; raise it with --limit " + limit +
                                 "=N)");
}

// The client's text as quoted in an error: the whole of it up to a few hundred bytes, so a
// megabyte-long argument does not become a megabyte-long log line.
std::string Excerpt(std::string_view text) {
  constexpr size_t kShown = 256;
  if (text.size() <= kShown + 64) return std::string(text);
  return std::string(text.substr(0, kShown)) + "... (" + std::to_string(text.size()) + " bytes)";
}

class Parser {
 public:
  Parser(std::string_view s, const FilterLimits& limits) : s_(s), limits_(limits) {}

  Status Parse(std::unique_ptr<Filter>* out) {
    if (static_cast<int64_t>(s_.size()) > limits_.filter_string_bytes) {
      return LimitError(std::to_string(s_.size()) + " bytes long", "filter_string_bytes",
                        limits_.filter_string_bytes);
    }
    for (size_t i = 0; i < s_.size(); ++i) {
      const char c = s_[i];
      if (c == '(') {
        HBEMU_RETURN_IF_ERROR(PushOp(Op::kLParen));
      } else if (c == ' ' || c == '\t') {
        continue;
      } else if (IsBinaryKeyword(i, "OR")) {
        i += 1;
        HBEMU_RETURN_IF_ERROR(PushOperator(Op::kOr));
      } else if (IsBinaryKeyword(i, "AND")) {
        i += 2;
        HBEMU_RETURN_IF_ERROR(PushOperator(Op::kAnd));
      } else if (IsUnaryKeyword(i, "SKIP")) {
        i += 3;
        HBEMU_RETURN_IF_ERROR(PushOperator(Op::kSkip));
      } else if (IsUnaryKeyword(i, "WHILE")) {
        i += 4;
        HBEMU_RETURN_IF_ERROR(PushOperator(Op::kWhile));
      } else if (c == ')') {
        HBEMU_RETURN_IF_ERROR(CloseParen());
      } else {
        size_t length = 0;
        HBEMU_RETURN_IF_ERROR(ExtractSimpleExpression(i, &length));
        HBEMU_RETURN_IF_ERROR(CountOne());
        Tree leaf;
        HBEMU_RETURN_IF_ERROR(ParseSimpleExpression(s_.substr(i, length), &leaf.filter));
        filters_.push_back(std::move(leaf));
        i += length - 1;
      }
    }
    while (!ops_.empty()) HBEMU_RETURN_IF_ERROR(Reduce());
    if (filters_.size() != 1) return Status::InvalidArgument("Incorrect Filter String");
    *out = std::move(filters_.back().filter);
    return Status::OK();
  }

 private:
  char At(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }

  // AND / OR: preceded by a space or ')', followed by a space or '('.
  bool IsBinaryKeyword(size_t i, std::string_view word) const {
    if (i == 0 || s_.compare(i, word.size(), word) != 0) return false;
    const char before = s_[i - 1];
    if (i + word.size() >= s_.size()) return false;
    const char after = s_[i + word.size()];
    return (before == ' ' || before == ')') && (after == ' ' || after == '(');
  }

  // SKIP / WHILE: at the start or after a space or parenthesis, followed by a space or '('.
  bool IsUnaryKeyword(size_t i, std::string_view word) const {
    if (s_.compare(i, word.size(), word) != 0) return false;
    if (i + word.size() >= s_.size()) return false;
    const char after = s_[i + word.size()];
    const bool before_ok = i == 0 || s_[i - 1] == ' ' || s_[i - 1] == ')' || s_[i - 1] == '(';
    return before_ok && (after == ' ' || after == '(');
  }

  // A built filter and its depth: the AND/OR/SKIP/WHILE levels above its deepest leaf.
  struct Tree {
    std::unique_ptr<Filter> filter;
    int64_t depth = 0;
  };

  Status DepthError() const {
    return LimitError("nested more than " + std::to_string(limits_.filter_depth) + " levels deep",
                      "filter_depth", limits_.filter_depth);
  }

  Status CountOne() {
    if (++count_ > limits_.filter_count) {
      return LimitError("more than " + std::to_string(limits_.filter_count) + " filters",
                        "filter_count", limits_.filter_count);
    }
    return Status::OK();
  }

  // Every push and pop of the operator stack goes through these two, which keep the nesting
  // the text has opened so far and refuse it past the limit while reading. A pending SKIP or
  // WHILE is one level, and so is an open parenthesis, except one right after SKIP/WHILE
  // ("SKIP (a AND b)" is two levels, as its tree).
  Status PushOp(Op op) {
    const bool nests = IsUnary(op) || (op == Op::kLParen && (ops_.empty() || !IsUnary(ops_.back())));
    if (nests && ++open_levels_ > limits_.filter_depth) return DepthError();
    ops_.push_back(op);
    nests_.push_back(nests);
    return Status::OK();
  }
  void PopOp() {
    if (nests_.back()) --open_levels_;
    ops_.pop_back();
    nests_.pop_back();
  }

  // Builds the filter of the operator on top of the stack and pushes it.
  Status Reduce() {
    Tree tree;
    HBEMU_RETURN_IF_ERROR(PopArguments(&tree));
    if (tree.depth > limits_.filter_depth) return DepthError();
    filters_.push_back(std::move(tree));
    return Status::OK();
  }

  // ParseFilter.reduce then push.
  Status PushOperator(Op op) {
    while (!ops_.empty() && ops_.back() != Op::kLParen &&
           Precedence(ops_.back()) < Precedence(op)) {
      HBEMU_RETURN_IF_ERROR(Reduce());
    }
    return PushOp(op);
  }

  // The ')' branch, including its quirk: after reducing one operator it pops the next stack
  // entry unconditionally, so a lower-precedence operator still pending inside the
  // parentheses is lost and the search for '(' runs off the stack.
  Status CloseParen() {
    if (ops_.empty()) return Status::InvalidArgument("Mismatched parenthesis");
    Op top = ops_.back();
    if (top == Op::kLParen) {
      PopOp();
      return Status::OK();
    }
    while (top != Op::kLParen) {
      HBEMU_RETURN_IF_ERROR(Reduce());
      if (ops_.empty()) return Status::InvalidArgument("Mismatched parenthesis");
      top = ops_.back();
      PopOp();
    }
    return Status::OK();
  }

  Status PopArguments(Tree* out) {
    if (ops_.empty()) return Status::InvalidArgument("Incorrect Filter String (EmptyStackException)");
    const Op top = ops_.back();
    switch (top) {
      case Op::kAnd:
      case Op::kOr: {
        const char* message = top == Op::kAnd ? "Incorrect input string - an AND needs two filters"
                                              : "Incorrect input string - an OR needs two filters";
        // Operands come off the stack last first; reversed once at the end.
        std::vector<std::unique_ptr<Filter>> list;
        int64_t depth = 0;
        auto take = [&] {
          depth = std::max(depth, filters_.back().depth);
          list.push_back(std::move(filters_.back().filter));
          filters_.pop_back();
        };
        while (!ops_.empty() && ops_.back() == top) {
          if (filters_.empty()) return Status::InvalidArgument(message);
          take();
          PopOp();
        }
        if (filters_.empty()) return Status::InvalidArgument(message);
        take();
        std::reverse(list.begin(), list.end());
        HBEMU_RETURN_IF_ERROR(CountOne());
        out->filter = std::make_unique<FilterList>(
            top == Op::kAnd ? FilterList::Op::kAnd : FilterList::Op::kOr, std::move(list));
        out->depth = depth + 1;
        return Status::OK();
      }
      case Op::kSkip:
      case Op::kWhile: {
        if (filters_.empty()) {
          return Status::InvalidArgument(top == Op::kSkip
                                             ? "Incorrect input string - a SKIP wraps a filter"
                                             : "Incorrect input string - a WHILE wraps a filter");
        }
        Tree inner = std::move(filters_.back());
        filters_.pop_back();
        PopOp();
        HBEMU_RETURN_IF_ERROR(CountOne());
        if (top == Op::kSkip) {
          out->filter = std::make_unique<SkipFilter>(std::move(inner.filter));
        } else {
          out->filter = std::make_unique<WhileMatchFilter>(std::move(inner.filter));
        }
        out->depth = inner.depth + 1;
        return Status::OK();
      }
      case Op::kLParen:
        if (filters_.empty()) return Status::InvalidArgument("Incorrect Filter String");
        *out = std::move(filters_.back());
        filters_.pop_back();
        PopOp();
        return Status::OK();
    }
    return Status::InvalidArgument("Incorrect arguments on operatorStack");
  }

  // A quote is escaped when the next byte is another quote.
  bool QuoteUnescaped(std::string_view s, size_t i) const {
    return i + 1 >= s.size() || s[i + 1] != '\'';
  }

  // Up to and including the first ')' outside quotes.
  Status ExtractSimpleExpression(size_t start, size_t* length) const {
    int quotes = 0;
    for (size_t i = start; i < s_.size(); ++i) {
      if (s_[i] == '\'') {
        if (QuoteUnescaped(s_, i)) {
          ++quotes;
        } else {
          ++i;  // the escaped quote's partner
        }
      }
      if (i < s_.size() && s_[i] == ')' && quotes % 2 == 0) {
        *length = i - start + 1;
        return Status::OK();
      }
    }
    return Status::InvalidArgument("Incorrect Filter String");
  }

  // ParseFilter.getFilterArguments over one simple expression "Name(args)".
  Status GetArguments(std::string_view expr, std::vector<std::string>* args) const {
    const size_t lparen = expr.find('(');
    if (lparen == std::string_view::npos) return Status::InvalidArgument("Incorrect argument list");
    for (size_t i = lparen + 1; i < expr.size(); ++i) {
      const char c = expr[i];
      if (c == ' ' || c == ',' || c == ')') continue;
      if (c == '\'') {
        // A quoted argument, kept with its quotes; '' inside stands for one quote.
        std::string arg = "'";
        bool closed = false;
        for (size_t j = i + 1; j < expr.size(); ++j) {
          if (expr[j] == '\'') {
            if (QuoteUnescaped(expr, j)) {
              arg.push_back('\'');
              args->push_back(std::move(arg));
              // HBase sets i = j + 1 and its loop adds one more: the byte right after the
              // closing quote is skipped whatever it is.
              i = j + 1;
              closed = true;
              break;
            }
            arg.push_back('\'');
            ++j;
            if (j == expr.size() - 1) break;  // HBase: "Incorrect argument list" below
            continue;
          }
          if (j == expr.size() - 1) break;
          arg.push_back(expr[j]);
        }
        if (!closed) return Status::InvalidArgument("Incorrect argument list");
      } else {
        // A bare argument: integers, booleans, comparison operators.
        size_t j = i;
        while (j < expr.size() && expr[j] != ' ' && expr[j] != ',' && expr[j] != ')') ++j;
        if (j >= expr.size()) return Status::InvalidArgument("Incorrect argument list");
        args->emplace_back(expr.substr(i, j - i));
        i = j;
      }
    }
    return Status::OK();
  }

  Status ParseSimpleExpression(std::string_view expr, std::unique_ptr<Filter>* out) const {
    size_t name_end = 0;
    for (size_t i = 0; i < expr.size(); ++i) {
      if (expr[i] == '(' || expr[i] == ' ') {
        name_end = i;
        break;
      }
    }
    if (name_end == 0) return Status::InvalidArgument("Incorrect Filter Name");
    const std::string_view name = expr.substr(0, name_end);
    std::vector<std::string> args;
    HBEMU_RETURN_IF_ERROR(GetArguments(expr, &args));
    if (!IsRegisteredFilter(name)) {
      return Status::InvalidArgument("Filter Name " + Excerpt(name) + " not supported");
    }
    std::string reason;
    if (!CreateFilterFromArguments(name, args, out, &reason)) {
      return Status::InvalidArgument("Incorrect filter string " + Excerpt(expr) + " (" +
                                     Excerpt(reason) + ")");
    }
    return Status::OK();
  }

  const std::string_view s_;
  const FilterLimits limits_;
  std::vector<Op> ops_;
  std::vector<char> nests_;  // per ops_ entry: whether it counts in open_levels_
  std::vector<Tree> filters_;
  int64_t open_levels_ = 0;  // levels the text has opened and not closed yet
  int64_t count_ = 0;        // filters built so far (leaves and lists alike)
};

}  // namespace

Status ParseFilterString(std::string_view text, const FilterLimits& limits,
                         std::shared_ptr<const Filter>* out) {
  std::unique_ptr<Filter> filter;
  HBEMU_RETURN_IF_ERROR(Parser(text, limits).Parse(&filter));
  *out = std::move(filter);
  return Status::OK();
}

Status ParseFilterString(std::string_view text, std::shared_ptr<const Filter>* out) {
  return ParseFilterString(text, FilterLimits(), out);
}

}  // namespace hbemu::storage
