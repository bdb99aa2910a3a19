#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hbemu::shell {

// One value of the Ruby literal subset HBase shell commands are written in: 'str', "str" with
// escapes, integers, floats, true/false/nil, constants (VERSIONS evaluates to the string
// "VERSIONS", as HBase's HBaseConstants define them), [arrays] and {hashes with =>}.
struct Value {
  enum class Kind { kNil, kBool, kInt, kFloat, kString, kArray, kHash };
  Kind kind = Kind::kNil;
  bool boolean = false;
  int64_t integer = 0;
  double real = 0;
  std::string text;  // kString: raw bytes
  bool constant = false;  // kString written as a bare constant (VERSIONS), not a quoted string
  std::vector<Value> items;                     // kArray
  std::vector<std::pair<Value, Value>> pairs;  // kHash, in written order

  static Value String(std::string s);
  static Value Int(int64_t v);

  bool IsString() const { return kind == Kind::kString; }
  bool IsInt() const { return kind == Kind::kInt; }
  bool IsArray() const { return kind == Kind::kArray; }
  bool IsHash() const { return kind == Kind::kHash; }
  bool IsNil() const { return kind == Kind::kNil; }

  // For kHash: the value under the string key `key`, or nullptr.
  const Value* Find(const std::string& key) const;
  // Ruby's to_s: strings as they are, numbers in decimal, nil empty, true/false.
  std::string ToS() const;
  // Ruby's inspect, for messages: 'x' is shown as "x".
  std::string Inspect() const;
};

// Whether `name` is one of the constants HBase's shell defines (HBaseConstants: VERSIONS, TTL,
// FILTER, ...). Any other bare constant is a NameError there before the command runs.
bool IsShellConstant(const std::string& name);

// One command line: `name arg, arg, KEY => v, ...` or `name(arg, ...)`. Bare `k => v` pairs at
// the top level are gathered into one trailing hash, as Ruby does with a method's last argument.
struct Command {
  std::string name;
  std::vector<Value> args;
  // Written as a method call (arguments or parentheses): Ruby reports an unknown name as a
  // NoMethodError then, a NameError for a bare word.
  bool call = false;
};

// Parses one command. Returns false with a Ruby-style syntax message in *error and, when
// asked, the byte offset of the error in *error_pos (irb's caret).
bool ParseCommand(const std::string& line, Command* command, std::string* error,
                  size_t* error_pos = nullptr);

// Where `text` ends: inside how many open brackets, braces and parentheses, and inside which
// quote (0 for none). irb's continuation prompt shows both ("hbase:008:1* ", "hbase:002:0' ").
struct OpenState {
  int depth = 0;
  char quote = 0;
};
OpenState OpenStateOf(const std::string& text);

// True when `text` ends inside an open string, bracket or brace, or after a trailing comma or
// `=>`: the command continues on the next line.
bool NeedsMoreInput(const std::string& text);

}  // namespace hbemu::shell
