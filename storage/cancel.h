#pragma once

#include <atomic>

#include "storage/status.h"

namespace hbemu::storage {

// The process-wide "stopping" flag. The server sets it when its stop signal arrives; work whose
// length a client controls (a scan that filters out row after row) checks it between rows and
// ends with StoppingError(), so the call in flight replies and the server stops within its grace
// period instead of finishing a scan that may take minutes. It is never cleared in the server.
inline std::atomic<bool> g_stop_requested{false};

inline void RequestStop() { g_stop_requested.store(true, std::memory_order_relaxed); }
inline bool StopRequested() { return g_stop_requested.load(std::memory_order_relaxed); }
// Tests only: one process runs many stores.
inline void ClearStopRequestForTesting() { g_stop_requested.store(false); }

// What a cut-short call answers: an IOException (retryable: another server would serve it).
inline Status StoppingError() {
  return Status::IOError("the server is stopping: this call was cut short");
}

}  // namespace hbemu::storage
