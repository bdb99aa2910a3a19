#include "shell/interrupt.h"

#include <csignal>

namespace hbemu::shell {
namespace {
volatile std::sig_atomic_t g_requested = 0;
}  // namespace

void RequestInterrupt() { g_requested = 1; }
bool InterruptRequested() { return g_requested != 0; }
void ClearInterrupt() { g_requested = 0; }

void ThrowIfInterrupted(long rows) {
  if (g_requested) throw Interrupted(rows);
}

}  // namespace hbemu::shell
