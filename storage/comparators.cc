#include "storage/comparators.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <cstring>

#include "storage/java_utf8.h"

namespace hbemu::storage {
namespace {

int CompareBytes(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  const int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c;
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

// A comparator made by std::make_shared: its object and the shared count in one block.
constexpr size_t SharedBytes(size_t object) { return AllocationBytes(object + 16); }

class BinaryComparator : public Comparator {
 public:
  explicit BinaryComparator(std::string value) : value_(std::move(value)) {}
  Kind kind() const override { return Kind::kBinary; }
  int CompareTo(std::string_view cell) const override { return CompareBytes(value_, cell); }
  std::string ToString() const override { return "binary:" + value_; }
  size_t HeldBytes() const override { return SharedBytes(sizeof(*this)) + StringHeapBytes(value_); }

 private:
  const std::string value_;
};

// Compares the operand with the cell's first len(operand) bytes (all of a shorter cell).
class BinaryPrefixComparator : public Comparator {
 public:
  explicit BinaryPrefixComparator(std::string value) : value_(std::move(value)) {}
  Kind kind() const override { return Kind::kBinaryPrefix; }
  int CompareTo(std::string_view cell) const override {
    return CompareBytes(value_, cell.substr(0, std::min(cell.size(), value_.size())));
  }
  std::string ToString() const override { return "binaryprefix:" + value_; }
  size_t HeldBytes() const override { return SharedBytes(sizeof(*this)) + StringHeapBytes(value_); }

 private:
  const std::string value_;
};

char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// SubstringComparator lower-cases both sides (Locale.ROOT) and tests "contains". We fold ASCII
// only; COMPATIBILITY.md notes the difference for non-ASCII letters.
class SubstringComparator : public Comparator {
 public:
  explicit SubstringComparator(std::string value) : value_(std::move(value)) {
    std::transform(value_.begin(), value_.end(), value_.begin(), AsciiLower);
  }
  Kind kind() const override { return Kind::kSubstring; }
  int CompareTo(std::string_view cell) const override {
    if (value_.empty()) return 0;
    if (cell.size() < value_.size()) return 1;
    const char first = value_[0];
    for (size_t i = 0; i + value_.size() <= cell.size(); ++i) {
      if (AsciiLower(cell[i]) != first) continue;
      size_t j = 1;
      while (j < value_.size() && AsciiLower(cell[i + j]) == value_[j]) ++j;
      if (j == value_.size()) return 0;
    }
    return 1;
  }
  std::string ToString() const override { return "substring:" + value_; }
  size_t HeldBytes() const override { return SharedBytes(sizeof(*this)) + StringHeapBytes(value_); }

 private:
  std::string value_;
};

struct CodeDeleter {
  void operator()(pcre2_code* code) const { pcre2_code_free(code); }
};

// RegexStringComparator (JavaRegexEngine): Pattern.compile(expr, DOTALL) over the cell decoded
// as UTF-8, and Matcher.find(): an unanchored search. PCRE2 in UTF mode matches code points as
// Java does; ill-formed bytes are replaced by U+FFFD first, as Java's decoder does, and
// NEWLINE_ANY makes '$' honour Java's line terminators (\n, \r, \r\n, U+0085, U+2028/9).
class RegexStringComparator : public Comparator {
 public:
  RegexStringComparator(std::string expr, pcre2_code* code) : expr_(std::move(expr)), code_(code) {}
  Kind kind() const override { return Kind::kRegexString; }
  int CompareTo(std::string_view cell) const override {
    // One small match block per thread: we only need "matched or not", and PCRE2 fills in as
    // many offsets as fit.
    thread_local std::unique_ptr<pcre2_match_data, void (*)(pcre2_match_data*)> match_data(
        pcre2_match_data_create(1, nullptr), pcre2_match_data_free);
    thread_local std::string replaced;
    if (ReplaceInvalidUtf8(cell, &replaced)) cell = replaced;
    const auto subject = reinterpret_cast<PCRE2_SPTR>(cell.data());
    int rc = pcre2_match(code_.get(), subject, cell.size(), 0, PCRE2_NO_UTF_CHECK,
                         match_data.get(), nullptr);
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT) {
      rc = pcre2_match(code_.get(), subject, cell.size(), 0, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT,
                       match_data.get(), nullptr);
    }
    return rc >= 0 ? 0 : 1;  // no match, or a match/depth limit: "does not match"
  }
  std::string ToString() const override { return "regexstring:" + expr_; }
  size_t HeldBytes() const override {
    size_t code = 0, jit = 0;
    pcre2_pattern_info(code_.get(), PCRE2_INFO_SIZE, &code);
    pcre2_pattern_info(code_.get(), PCRE2_INFO_JITSIZE, &jit);
    return SharedBytes(sizeof(*this)) + StringHeapBytes(expr_) + AllocationBytes(code) +
           (jit > 0 ? AllocationBytes(jit) : 0);
  }

 private:
  const std::string expr_;
  std::unique_ptr<pcre2_code, CodeDeleter> code_;
};

std::shared_ptr<const Comparator> MakeRegex(std::string expr, std::string* error) {
  // ParseFilter decodes the pattern bytes as UTF-8 too.
  std::string pattern;
  if (!ReplaceInvalidUtf8(expr, &pattern)) pattern = expr;
  pcre2_compile_context* ctx = pcre2_compile_context_create(nullptr);
  pcre2_set_newline(ctx, PCRE2_NEWLINE_ANY);
  int error_code = 0;
  PCRE2_SIZE error_offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   PCRE2_DOTALL | PCRE2_UTF, &error_code, &error_offset, ctx);
  pcre2_compile_context_free(ctx);
  if (code == nullptr) {
    PCRE2_UCHAR buffer[256];
    pcre2_get_error_message(error_code, buffer, sizeof(buffer));
    *error = "invalid regular expression '" + expr + "' at offset " +
             std::to_string(error_offset) + ": " + reinterpret_cast<const char*>(buffer);
    return nullptr;
  }
  pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);  // best effort; the interpreter is the fallback
  return std::make_shared<RegexStringComparator>(std::move(expr), code);
}

}  // namespace

bool ParseCompareOp(std::string_view text, CompareOp* op) {
  if (text == "<") *op = CompareOp::kLess;
  else if (text == "<=") *op = CompareOp::kLessOrEqual;
  else if (text == "=") *op = CompareOp::kEqual;
  else if (text == "!=") *op = CompareOp::kNotEqual;
  else if (text == ">=") *op = CompareOp::kGreaterOrEqual;
  else if (text == ">") *op = CompareOp::kGreater;
  else return false;
  return true;
}

const char* CompareOpName(CompareOp op) {
  switch (op) {
    case CompareOp::kLess: return "LESS";
    case CompareOp::kLessOrEqual: return "LESS_OR_EQUAL";
    case CompareOp::kEqual: return "EQUAL";
    case CompareOp::kNotEqual: return "NOT_EQUAL";
    case CompareOp::kGreaterOrEqual: return "GREATER_OR_EQUAL";
    case CompareOp::kGreater: return "GREATER";
    case CompareOp::kNoOp: return "NO_OP";
  }
  return "?";
}

std::shared_ptr<const Comparator> MakeComparator(std::string_view spec, std::string* error) {
  const size_t colon = spec.find(':');
  if (colon == std::string_view::npos) {
    *error = "Incorrect comparator";
    return nullptr;
  }
  const std::string_view type = spec.substr(0, colon);
  std::string value(spec.substr(colon + 1));
  if (type == "binary") return std::make_shared<BinaryComparator>(std::move(value));
  if (type == "binaryprefix") return std::make_shared<BinaryPrefixComparator>(std::move(value));
  if (type == "regexstring") return MakeRegex(std::move(value), error);
  if (type == "substring") return std::make_shared<SubstringComparator>(std::move(value));
  *error = "Incorrect comparatorType";
  return nullptr;
}

bool CompareFiltersOut(CompareOp op, int r) {
  switch (op) {
    case CompareOp::kLess: return r <= 0;
    case CompareOp::kLessOrEqual: return r < 0;
    case CompareOp::kEqual: return r != 0;
    case CompareOp::kNotEqual: return r == 0;
    case CompareOp::kGreaterOrEqual: return r > 0;
    case CompareOp::kGreater: return r >= 0;
    case CompareOp::kNoOp: return true;  // CompareFilter: NO_OP filters every cell out
  }
  return true;
}

Status CheckValueMatches(CompareOp op, const std::optional<std::string>& expected,
                         const std::optional<std::string_view>& stored, bool* matches) {
  *matches = false;
  if (!expected.has_value() || expected->empty()) {
    const bool absent_or_empty = !stored.has_value() || stored->empty();
    *matches = absent_or_empty == (op != CompareOp::kNotEqual);
    return Status::OK();
  }
  if (!stored.has_value()) return Status::OK();
  // Bytes.compareTo(expected, stored): unsigned, shorter prefix first.
  const int c = std::string_view(*expected).compare(*stored);
  switch (op) {
    case CompareOp::kLess: *matches = c < 0; break;
    case CompareOp::kLessOrEqual: *matches = c <= 0; break;
    case CompareOp::kEqual: *matches = c == 0; break;
    case CompareOp::kNotEqual: *matches = c != 0; break;
    case CompareOp::kGreaterOrEqual: *matches = c >= 0; break;
    case CompareOp::kGreater: *matches = c > 0; break;
    case CompareOp::kNoOp:
      return Status::IOError("java.lang.RuntimeException: Unknown Compare op NO_OP");
  }
  return Status::OK();
}

}  // namespace hbemu::storage
