#include "shell/value.h"

#include <algorithm>

#include <cctype>
#include <cstdio>
#include <set>

namespace hbemu::shell {

Value Value::String(std::string s) {
  Value v;
  v.kind = Kind::kString;
  v.text = std::move(s);
  return v;
}

Value Value::Int(int64_t i) {
  Value v;
  v.kind = Kind::kInt;
  v.integer = i;
  return v;
}

const Value* Value::Find(const std::string& key) const {
  for (const auto& [k, v] : pairs) {
    if (k.IsString() && k.text == key) return &v;
  }
  return nullptr;
}

std::string Value::ToS() const {
  switch (kind) {
    case Kind::kNil: return "";
    case Kind::kBool: return boolean ? "true" : "false";
    case Kind::kInt: return std::to_string(integer);
    case Kind::kFloat: {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%g", real);
      return buf;
    }
    case Kind::kString: return text;
    default: return Inspect();
  }
}

std::string Value::Inspect() const {
  switch (kind) {
    case Kind::kNil: return "nil";
    case Kind::kString: {
      // Ruby escapes the quote and the backslash (a toStringBinary "\x00" shows as "\\x00").
      std::string out = "\"";
      for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      return out + "\"";
    }
    case Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i].Inspect();
      return out + "]";
    }
    case Kind::kHash: {
      std::string out = "{";
      for (size_t i = 0; i < pairs.size(); ++i) {
        out += (i ? ", " : "") + pairs[i].first.Inspect() + "=>" + pairs[i].second.Inspect();
      }
      return out + "}";
    }
    default: return ToS();
  }
}

namespace {

// Recursive descent over one line; positions are byte offsets into `src_`.
class Parser {
 public:
  explicit Parser(const std::string& src) : src_(src) {}

  // Where the error is (a byte offset into the text), for irb's caret.
  size_t error_pos() const { return error_pos_; }

  bool ParseCommandLine(Command* command, std::string* error) {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < src_.size() && (std::isalnum(Byte()) || src_[pos_] == '_')) ++pos_;
    command->name = src_.substr(start, pos_ - start);
    if (command->name.empty()) return Fail("syntax error, unexpected input", error);
    SkipSpace();
    bool parens = false;
    if (pos_ < src_.size() && src_[pos_] == '(') {
      parens = true;
      ++pos_;
    }
    Value trailing_hash;
    trailing_hash.kind = Value::Kind::kHash;
    SkipSpace();
    bool first = true;
    while (!AtEnd(parens)) {
      if (!first) {
        if (!Expect(',')) return Fail("syntax error, unexpected input, expecting ','", error);
      }
      first = false;
      Value v;
      if (!ParseValue(&v)) return Fail(error_, error);
      SkipSpace();
      if (Peek("=>")) {  // a bare `key => value`: part of the trailing hash
        pos_ += 2;
        Value val;
        if (!ParseValue(&val)) return Fail(error_, error);
        trailing_hash.pairs.emplace_back(std::move(v), std::move(val));
      } else {
        if (!trailing_hash.pairs.empty()) {
          return Fail("syntax error, unexpected argument after a hash", error);
        }
        command->args.push_back(std::move(v));
      }
      SkipSpace();
    }
    if (parens) ++pos_;
    SkipSpace();
    if (pos_ != src_.size()) return Fail("syntax error, unexpected input", error);
    if (!trailing_hash.pairs.empty()) command->args.push_back(std::move(trailing_hash));
    command->call = parens || !command->args.empty();
    return true;
  }

 private:
  int Byte() const { return static_cast<unsigned char>(src_[pos_]); }
  bool Peek(const char* s) const { return src_.compare(pos_, std::char_traits<char>::length(s), s) == 0; }

  bool AtEnd(bool parens) {
    SkipSpace();
    if (parens) return pos_ >= src_.size() || src_[pos_] == ')';
    return pos_ >= src_.size();
  }

  void SkipSpace() {
    while (pos_ < src_.size()) {
      if (std::isspace(Byte())) {
        ++pos_;
      } else if (src_[pos_] == '#') {  // a comment runs to the end of the line
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  bool Expect(char c) {
    SkipSpace();
    if (pos_ < src_.size() && src_[pos_] == c) {
      ++pos_;
      SkipSpace();
      return true;
    }
    return false;
  }

  bool Fail(const std::string& message, std::string* error) {
    *error = message;
    if (error_pos_ == std::string::npos) error_pos_ = std::min(pos_, src_.size());
    return false;
  }

  bool SetError(const std::string& message) {
    error_ = message;
    if (error_pos_ == std::string::npos) error_pos_ = std::min(pos_, src_.size());
    return false;
  }



  bool ParseValue(Value* out) {
    SkipSpace();
    if (pos_ >= src_.size()) return SetError("syntax error, unexpected end-of-input");
    char c = src_[pos_];
    if (c == '\'' || c == '"') {
      // Adjacent string literals are one string in Ruby: 'a' 'b' is "ab".
      if (!(c == '\'' ? ParseSingleQuoted(out) : ParseDoubleQuoted(out))) return false;
      for (;;) {
        size_t next = pos_;
        while (next < src_.size() && (src_[next] == ' ' || src_[next] == '\t')) ++next;
        if (next >= src_.size() || (src_[next] != '\'' && src_[next] != '"')) return true;
        pos_ = next;
        Value more;
        if (!(src_[pos_] == '\'' ? ParseSingleQuoted(&more) : ParseDoubleQuoted(&more))) return false;
        out->text += more.text;
      }
    }
    if (c == '[') return ParseArray(out);
    if (c == '{') return ParseHash(out);
    if (std::isdigit(Byte()) || ((c == '-' || c == '+') && pos_ + 1 < src_.size() &&
                                 std::isdigit(static_cast<unsigned char>(src_[pos_ + 1])))) {
      return ParseNumber(out);
    }
    if (std::isalpha(Byte()) || c == '_') return ParseWord(out);
    return SetError(std::string("syntax error, unexpected '") + c + "'");
  }

  bool ParseSingleQuoted(Value* out) {
    const size_t opening = pos_;
    ++pos_;
    std::string s;
    while (pos_ < src_.size() && src_[pos_] != '\'') {
      if (src_[pos_] == '\\' && pos_ + 1 < src_.size() &&
          (src_[pos_ + 1] == '\'' || src_[pos_ + 1] == '\\')) {
        ++pos_;
      }
      s += src_[pos_++];
    }
    if (pos_ >= src_.size()) {
      error_pos_ = opening;
      return SetError("unterminated string meets end of file");
    }
    ++pos_;
    *out = Value::String(std::move(s));
    return true;
  }

  static int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool ParseDoubleQuoted(Value* out) {
    const size_t opening = pos_;
    ++pos_;
    std::string s;
    while (pos_ < src_.size() && src_[pos_] != '"') {
      char c = src_[pos_++];
      if (c != '\\') {
        s += c;
        continue;
      }
      if (pos_ >= src_.size()) break;
      char e = src_[pos_++];
      switch (e) {
        case 'n': s += '\n'; break;
        case 't': s += '\t'; break;
        case 'r': s += '\r'; break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
          int v = e - '0';  // up to three octal digits, as Ruby
          for (int i = 0; i < 2 && pos_ < src_.size() && src_[pos_] >= '0' && src_[pos_] <= '7'; ++i) {
            v = v * 8 + (src_[pos_++] - '0');
          }
          s += static_cast<char>(v & 0xff);
          break;
        }
        case 'x': {
          int v = 0;
          int digits = 0;
          while (digits < 2 && pos_ < src_.size() && HexDigit(src_[pos_]) >= 0) {
            v = v * 16 + HexDigit(src_[pos_++]);
            ++digits;
          }
          if (digits == 0) return SetError("invalid hex escape");
          s += static_cast<char>(v);
          break;
        }
        case 'e': s += '\x1b'; break;
        case 'a': s += '\a'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'v': s += '\v'; break;
        case 's': s += ' '; break;
        default: s += e; break;  // \\, \", \' and any other character stand for themselves
      }
    }
    if (pos_ >= src_.size()) {
      error_pos_ = opening;
      return SetError("unterminated string meets end of file");
    }
    ++pos_;
    *out = Value::String(std::move(s));
    return true;
  }

  bool ParseNumber(Value* out) {
    size_t start = pos_;
    if (src_[pos_] == '-' || src_[pos_] == '+') ++pos_;
    bool is_float = false;
    while (pos_ < src_.size() && (std::isdigit(Byte()) || src_[pos_] == '_' ||
                                  (src_[pos_] == '.' && pos_ + 1 < src_.size() &&
                                   std::isdigit(static_cast<unsigned char>(src_[pos_ + 1]))))) {
      if (src_[pos_] == '.') is_float = true;
      ++pos_;
    }
    std::string digits;
    for (size_t i = start; i < pos_; ++i) {
      if (src_[i] != '_') digits += src_[i];
    }
    try {
      if (is_float) {
        out->kind = Value::Kind::kFloat;
        out->real = std::stod(digits);
      } else {
        out->kind = Value::Kind::kInt;
        out->integer = std::stoll(digits);
      }
    } catch (...) {
      return SetError("number out of range: " + digits);
    }
    return true;
  }

  bool ParseWord(Value* out) {
    size_t start = pos_;
    while (pos_ < src_.size() && (std::isalnum(Byte()) || src_[pos_] == '_')) ++pos_;
    std::string word = src_.substr(start, pos_ - start);
    if (word == "true" || word == "false") {
      out->kind = Value::Kind::kBool;
      out->boolean = word == "true";
      return true;
    }
    if (word == "nil") {
      out->kind = Value::Kind::kNil;
      return true;
    }
    if (std::isupper(static_cast<unsigned char>(word[0]))) {
      // HBase's constants (VERSIONS, NAME, ...) are strings equal to their names; a dotted
      // Java expression (org.apache...Filter.new) is outside what a Thrift client can send.
      if (pos_ < src_.size() && src_[pos_] == '.') {
        return SetError("Java expressions are not supported here; use a filter string");
      }
      *out = Value::String(word);
      out->constant = true;
      return true;
    }
    return SetError("undefined local variable or method `" + word + "'");
  }

  bool ParseArray(Value* out) {
    ++pos_;
    out->kind = Value::Kind::kArray;
    SkipSpace();
    while (pos_ < src_.size() && src_[pos_] != ']') {
      Value v;
      if (!ParseValue(&v)) return false;
      out->items.push_back(std::move(v));
      SkipSpace();
      if (pos_ < src_.size() && src_[pos_] == ',') {
        ++pos_;
        SkipSpace();
      } else if (pos_ < src_.size() && src_[pos_] != ']') {
        return SetError("syntax error, unexpected input, expecting ']'");
      }
    }
    if (pos_ >= src_.size()) return SetError("syntax error, unexpected end-of-input, expecting ']'");
    ++pos_;
    return true;
  }

  bool ParseHash(Value* out) {
    ++pos_;
    out->kind = Value::Kind::kHash;
    SkipSpace();
    while (pos_ < src_.size() && src_[pos_] != '}') {
      Value k;
      if (!ParseValue(&k)) return false;
      SkipSpace();
      if (!Peek("=>")) return SetError("syntax error, unexpected input, expecting =>");
      pos_ += 2;
      Value v;
      if (!ParseValue(&v)) return false;
      out->pairs.emplace_back(std::move(k), std::move(v));
      SkipSpace();
      if (pos_ < src_.size() && src_[pos_] == ',') {
        ++pos_;
        SkipSpace();
      } else if (pos_ < src_.size() && src_[pos_] != '}') {
        return SetError("syntax error, unexpected input, expecting '}'");
      }
    }
    if (pos_ >= src_.size()) return SetError("syntax error, unexpected end-of-input, expecting '}'");
    ++pos_;
    return true;
  }

  const std::string& src_;
  size_t pos_ = 0;
  std::string error_;
  size_t error_pos_ = std::string::npos;
};

}  // namespace

bool ParseCommand(const std::string& line, Command* command, std::string* error,
                  size_t* error_pos) {
  *command = Command();
  Parser parser(line);
  const bool ok = parser.ParseCommandLine(command, error);
  if (!ok && error_pos) *error_pos = parser.error_pos() == std::string::npos ? 0 : parser.error_pos();
  return ok;
}

OpenState OpenStateOf(const std::string& text) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '[' || c == '{' || c == '(') {
      ++depth;
    } else if (c == ']' || c == '}' || c == ')') {
      --depth;
    }
  }
  return OpenState{depth, quote};
}

bool NeedsMoreInput(const std::string& text) {
  const OpenState open = OpenStateOf(text);
  if (open.quote || open.depth > 0) return true;
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return false;
  return text[end] == ',' || (end >= 1 && text.compare(end - 1, 2, "=>") == 0);
}

bool IsShellConstant(const std::string& name) {
  // HBaseConstants.constants of HBase 2.6.1's shell (listed by running it), plus DROP and
  // FORCE, which only this shell's `reset` takes.
  static const std::set<std::string> kNames = {
    "ALLOW_PARTIAL_RESULTS", "ALL_METRICS", "ATTRIBUTES", "AUTHORIZATIONS", "BATCH",
    "BLOCKCACHE", "BLOCKSIZE", "BLOOMFILTER", "CACHE", "CACHE_BLOCKS", "CACHE_BLOOMS_ON_WRITE",
    "CACHE_DATA_IN_L1", "CACHE_DATA_ON_WRITE", "CACHE_INDEX_ON_WRITE", "CLASSNAME", "CLONE_SFT",
    "CLUSTER_KEY", "COLUMN", "COLUMNS", "COMPACTION_ENABLED", "COMPARATOR",
    "COMPARATOR_IGNORE_REPLICATION", "COMPRESSION", "COMPRESSION_COMPACT",
    "COMPRESSION_COMPACT_MAJOR", "COMPRESSION_COMPACT_MINOR", "COMPRESS_TAGS", "CONFIG",
    "CONFIGURATION", "CONSISTENCY", "DATA", "DATA_BLOCK_ENCODING", "DFS_REPLICATION",
    "DURABILITY", "ENCODE_ON_DISK", "ENCRYPTION", "ENCRYPTION_KEY", "ENDKEY",
    "ENDPOINT_CLASSNAME", "ENDROW", "ERASURE_CODING_POLICY", "EVICT_BLOCKS_ON_CLOSE", "FILTER",
    "FLUSH_POLICY", "FOREVER", "FORMATTER", "FORMATTER_CLASS", "INTERVAL", "IN_MEMORY",
    "IN_MEMORY_COMPACTION", "ISOLATION_LEVEL", "IS_META", "IS_MOB", "IS_MOB_BYTES", "IS_ROOT",
    "KEEP_DELETED_CELLS", "LENGTH", "LIMIT", "LOCALITY_THRESHOLD", "MAXLENGTH", "MAX_FILESIZE",
    "MAX_RESULT_SIZE", "MEMSTORE_FLUSHSIZE", "MERGE_ENABLED", "METADATA", "METHOD", "METRICS",
    "MIN_VERSIONS", "MOB_COMPACT_PARTITION_POLICY", "MOB_COMPACT_PARTITION_POLICY_BYTES",
    "MOB_THRESHOLD", "MOB_THRESHOLD_BYTES", "NAME", "NAMESPACE", "NAMESPACES",
    "NAMESPACE_COL_DESC_BYTES", "NAMESPACE_FAMILY_INFO", "NAMESPACE_FAMILY_INFO_BYTES",
    "NAMESPACE_TABLEDESC", "NEW_VERSION_BEHAVIOR", "NONE", "NORMALIZATION_ENABLED",
    "NORMALIZER_TARGET_REGION_COUNT", "NORMALIZER_TARGET_REGION_SIZE",
    "NORMALIZER_TARGET_REGION_SIZE_MB", "NUMREGIONS", "OWNER", "OWNER_KEY", "POLICY",
    "PREFETCH_BLOCKS_ON_OPEN", "PRIORITY", "RAW", "READONLY", "READ_TYPE", "REGEX",
    "REGIONSERVER", "REGION_MEMSTORE_REPLICATION", "REGION_REPLICATION", "REGION_REPLICA_ID",
    "REOPEN_REGIONS", "REPLICATION_SCOPE", "REPLICATION_SCOPE_BYTES", "RESTORE_ACL", "REVERSED",
    "ROWPREFIXFILTER", "SERIAL", "SERVER_NAME", "SKIP_FLUSH", "SPLITALGO", "SPLITS",
    "SPLITS_FILE", "SPLIT_ENABLED", "SPLIT_POLICY", "STARTKEY", "STARTROW", "STATE", "STOPROW",
    "STORAGE_POLICY", "TABLE", "TABLE_CFS", "TABLE_NAME", "TABLE_NAMES", "TIMERANGE",
    "TIMESTAMP", "TTL", "TYPE", "USER", "VALUE", "VERSIONS", "VISIBILITY", "DROP", "FORCE",
  };
  return kNames.count(name) > 0;
}

}  // namespace hbemu::shell
