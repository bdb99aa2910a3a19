#include "server/gateway/failure_reason.h"

#include <utility>

namespace hbemu::server {
namespace {
thread_local std::string failure_reason;
}  // namespace

void NoteFailureReason(std::string reason) { failure_reason = std::move(reason); }

std::string TakeFailureReason() {
  std::string out;
  out.swap(failure_reason);
  return out;
}

}  // namespace hbemu::server
