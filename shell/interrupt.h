#pragma once

#include <stdexcept>

namespace hbemu::shell {

// Ctrl-C while a command runs: the terminal's SIGINT handler only sets a flag (all a signal
// handler may do); the loops of long commands (scan, count) look at it between rows and stop.
void RequestInterrupt();  // async-signal-safe
bool InterruptRequested();
void ClearInterrupt();

// Thrown by a command that stopped at the user's request; `rows` it had handled by then.
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(long rows) : std::runtime_error("interrupted"), rows_(rows) {}
  long rows() const { return rows_; }

 private:
  long rows_;
};

// Throws Interrupted(rows) when Ctrl-C was pressed since the command began.
void ThrowIfInterrupted(long rows);

}  // namespace hbemu::shell
