#include "server/thrift2/table_pattern.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace hbemu::server {

struct TablePattern::Code {
  pcre2_code* code = nullptr;
  ~Code() { pcre2_code_free(code); }
};

TablePattern::TablePattern(std::unique_ptr<Code> code) : code_(std::move(code)) {}
TablePattern::~TablePattern() = default;

storage::Status TablePattern::Compile(const std::string& regex,
                                      std::unique_ptr<TablePattern>* out) {
  int error_code = 0;
  PCRE2_SIZE error_offset = 0;
  // Anchored at both ends: Java's Matcher.matches() needs the whole name to match.
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(regex.data()), regex.size(),
                                   PCRE2_ANCHORED | PCRE2_ENDANCHORED | PCRE2_UTF, &error_code,
                                   &error_offset, nullptr);
  if (code == nullptr) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(error_code, message, sizeof(message));
    return storage::Status::InvalidArgument(std::string(reinterpret_cast<char*>(message)) +
                                            " near index " + std::to_string(error_offset) +
                                            "\n" + regex);
  }
  auto holder = std::make_unique<Code>();
  holder->code = code;
  out->reset(new TablePattern(std::move(holder)));
  return storage::Status::OK();
}

bool TablePattern::FullMatch(const std::string& subject) const {
  pcre2_match_data* data = pcre2_match_data_create_from_pattern(code_->code, nullptr);
  const int rc = pcre2_match(code_->code, reinterpret_cast<PCRE2_SPTR>(subject.data()),
                             subject.size(), 0, 0, data, nullptr);
  pcre2_match_data_free(data);
  return rc >= 0;
}

bool TablePattern::Matches(const std::string& ns, const std::string& qualifier) const {
  if (ns == "default") return FullMatch(qualifier) || FullMatch("default:" + qualifier);
  return FullMatch(ns + ":" + qualifier);
}

}  // namespace hbemu::server
