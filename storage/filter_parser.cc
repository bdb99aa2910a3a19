#include "storage/filter_parser.h"

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

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  Status Parse(std::unique_ptr<Filter>* out) {
    for (size_t i = 0; i < s_.size(); ++i) {
      const char c = s_[i];
      if (c == '(') {
        ops_.push_back(Op::kLParen);
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
        std::unique_ptr<Filter> filter;
        HBEMU_RETURN_IF_ERROR(ParseSimpleExpression(s_.substr(i, length), &filter));
        filters_.push_back(std::move(filter));
        i += length - 1;
      }
    }
    while (!ops_.empty()) {
      std::unique_ptr<Filter> f;
      HBEMU_RETURN_IF_ERROR(PopArguments(&f));
      filters_.push_back(std::move(f));
    }
    if (filters_.size() != 1) return Status::InvalidArgument("Incorrect Filter String");
    *out = std::move(filters_.back());
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

  // ParseFilter.reduce then push.
  Status PushOperator(Op op) {
    while (!ops_.empty() && ops_.back() != Op::kLParen &&
           Precedence(ops_.back()) < Precedence(op)) {
      std::unique_ptr<Filter> f;
      HBEMU_RETURN_IF_ERROR(PopArguments(&f));
      filters_.push_back(std::move(f));
    }
    ops_.push_back(op);
    return Status::OK();
  }

  // The ')' branch, including its quirk: after reducing one operator it pops the next stack
  // entry unconditionally, so a lower-precedence operator still pending inside the
  // parentheses is lost and the search for '(' runs off the stack.
  Status CloseParen() {
    if (ops_.empty()) return Status::InvalidArgument("Mismatched parenthesis");
    Op top = ops_.back();
    if (top == Op::kLParen) {
      ops_.pop_back();
      return Status::OK();
    }
    while (top != Op::kLParen) {
      std::unique_ptr<Filter> f;
      HBEMU_RETURN_IF_ERROR(PopArguments(&f));
      filters_.push_back(std::move(f));
      if (ops_.empty()) return Status::InvalidArgument("Mismatched parenthesis");
      top = ops_.back();
      ops_.pop_back();
    }
    return Status::OK();
  }

  Status PopArguments(std::unique_ptr<Filter>* out) {
    if (ops_.empty()) return Status::InvalidArgument("Incorrect Filter String (EmptyStackException)");
    const Op top = ops_.back();
    switch (top) {
      case Op::kAnd:
      case Op::kOr: {
        const char* message = top == Op::kAnd ? "Incorrect input string - an AND needs two filters"
                                              : "Incorrect input string - an OR needs two filters";
        std::vector<std::unique_ptr<Filter>> list;
        while (!ops_.empty() && ops_.back() == top) {
          if (filters_.empty()) return Status::InvalidArgument(message);
          list.insert(list.begin(), std::move(filters_.back()));
          filters_.pop_back();
          ops_.pop_back();
        }
        if (filters_.empty()) return Status::InvalidArgument(message);
        list.insert(list.begin(), std::move(filters_.back()));
        filters_.pop_back();
        *out = std::make_unique<FilterList>(
            top == Op::kAnd ? FilterList::Op::kAnd : FilterList::Op::kOr, std::move(list));
        return Status::OK();
      }
      case Op::kSkip:
      case Op::kWhile: {
        if (filters_.empty()) {
          return Status::InvalidArgument(top == Op::kSkip
                                             ? "Incorrect input string - a SKIP wraps a filter"
                                             : "Incorrect input string - a WHILE wraps a filter");
        }
        std::unique_ptr<Filter> inner = std::move(filters_.back());
        filters_.pop_back();
        ops_.pop_back();
        if (top == Op::kSkip) {
          *out = std::make_unique<SkipFilter>(std::move(inner));
        } else {
          *out = std::make_unique<WhileMatchFilter>(std::move(inner));
        }
        return Status::OK();
      }
      case Op::kLParen:
        if (filters_.empty()) return Status::InvalidArgument("Incorrect Filter String");
        *out = std::move(filters_.back());
        filters_.pop_back();
        ops_.pop_back();
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
      return Status::InvalidArgument("Filter Name " + std::string(name) + " not supported");
    }
    std::string reason;
    if (!CreateFilterFromArguments(name, args, out, &reason)) {
      return Status::InvalidArgument("Incorrect filter string " + std::string(expr) + " (" +
                                     reason + ")");
    }
    return Status::OK();
  }

  const std::string_view s_;
  std::vector<Op> ops_;
  std::vector<std::unique_ptr<Filter>> filters_;
};

}  // namespace

Status ParseFilterString(std::string_view text, std::shared_ptr<const Filter>* out) {
  std::unique_ptr<Filter> filter;
  HBEMU_RETURN_IF_ERROR(Parser(text).Parse(&filter));
  *out = std::move(filter);
  return Status::OK();
}

}  // namespace hbemu::storage
