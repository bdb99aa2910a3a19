#pragma once

#include <string>

namespace hbemu::server {

// The server's own account of why the call running on this thread failed, kept for the test
// controls' call log: fuller than what some replies carry (Thrift2 sends a missing table's
// name alone, without the exception class). Set by the error mappers; read once per call.
void NoteFailureReason(std::string reason);
// The reason noted since the last take (empty for none), and forgets it.
std::string TakeFailureReason();

}  // namespace hbemu::server
