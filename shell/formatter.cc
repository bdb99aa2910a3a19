#include "shell/formatter.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <vector>

namespace hbemu::shell {
namespace {

std::vector<std::string> Split(int width, const std::string& s) {
  if (width <= 0) return {s};
  std::vector<std::string> parts;
  for (size_t i = 0; i < s.size(); i += width) parts.push_back(s.substr(i, width));
  if (parts.empty()) parts.push_back("");
  return parts;
}

std::string Pad(int width, const std::string& s) {
  if (width <= 0 || static_cast<int>(s.size()) >= width) return s;
  return s + std::string(width - s.size(), ' ');
}

}  // namespace

int TerminalWidth(int fd) {
  if (!isatty(fd)) return 0;
  winsize ws{};
  if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return 80;
  return ws.ws_col;
}

void Formatter::TwoColumns(const std::string& a, const std::string& b, bool inset) {
  int w1 = width_ ? width_ / 4 : 0;
  int w2 = width_ ? width_ - w1 - 2 : 0;
  auto left = Split(w1, a);
  auto right = Split(w2, b);
  size_t lines = std::max(left.size(), right.size());
  for (size_t i = 0; i < lines; ++i) {
    if (inset) out_ << ' ';
    out_ << Pad(w1, i < left.size() ? left[i] : "");
    if (!inset) out_ << ' ';
    out_ << ' ';
    std::string r = i < right.size() ? right[i] : "";
    // The last column is padded on a terminal too, as HBase does; trailing blanks are harmless.
    out_ << Pad(w2, r) << '\n';
  }
}

void Formatter::Header(const std::string& a, const std::string& b) {
  TwoColumns(a, b, false);
  rows_ = 0;
}

void Formatter::Header(const std::string& a) {
  for (const auto& part : Split(width_, a)) out_ << Pad(width_, part) << '\n';
  rows_ = 0;
}

void Formatter::Row(const std::string& a, const std::string& b) {
  TwoColumns(a, b, true);
  ++rows_;
}

void Formatter::Row(const std::string& a) {
  for (const auto& part : Split(width_, a)) out_ << Pad(width_, part) << '\n';
  ++rows_;
}

void Formatter::Footer(long rows) { out_ << rows << " row(s)\n"; }

}  // namespace hbemu::shell
