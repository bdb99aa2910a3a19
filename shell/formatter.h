#pragma once

#include <ostream>
#include <string>

namespace hbemu::shell {

// HBase shell's console formatter. On a terminal the two columns are padded to the terminal's
// width (a quarter for the first) and long text wraps; otherwise (a pipe or a file) columns are
// separated by one space, which is what scripts and the golden tests see.
class Formatter {
 public:
  Formatter(std::ostream& out, int width) : out_(out), width_(width) {}

  // A header line (not counted): "ROW  COLUMN+CELL".
  void Header(const std::string& a, const std::string& b);
  void Header(const std::string& a);
  // A counted two-column row, inset by one space: " r1 column=f:q, ...".
  void Row(const std::string& a, const std::string& b);
  // A counted one-column row.
  void Row(const std::string& a);
  // "N row(s)".
  void Footer(long rows);
  void Footer() { Footer(rows_); }
  // A plain line.
  void Line(const std::string& text) { out_ << text << "\n"; }

  // The command's Ruby return value as irb echoes it after the timing ("=> 6"), in interactive
  // sessions only; commands whose Ruby method returns nil do not call this.
  void Return(const std::string& inspect) {
    return_value_ = inspect;
    has_return_ = true;
  }
  bool has_return() const { return has_return_; }
  const std::string& return_value() const { return return_value_; }

  std::ostream& stream() { return out_; }
  long rows() const { return rows_; }

 private:
  void TwoColumns(const std::string& a, const std::string& b, bool inset);

  std::ostream& out_;
  int width_;  // 0: not a terminal
  long rows_ = 0;
  bool has_return_ = false;
  std::string return_value_;
};

// The terminal's width when `fd` is one, else 0.
int TerminalWidth(int fd);

}  // namespace hbemu::shell
