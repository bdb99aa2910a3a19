#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "shell/connection.h"
#include "shell/shell.h"

namespace hbemu::shell {

// A control the server refused: its HTTP status and its {"error": ...} text, which for storage
// failures starts with the Java exception class ("org.apache...SnapshotExistsException: ...").
class ControlFailure : public ShellError {
 public:
  ControlFailure(int status, const std::string& message)
      : ShellError(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// One call to hbase-emulator's test controls (--test-controls): JSON over HTTP on the admin
// port under /control/. Returns the answer's JSON. Throws ControlFailure when the server
// refuses the call, ShellError when there is no server or it has no controls.
nlohmann::json ControlCall(const ConnectionOptions& options, const std::string& method,
                           const std::string& path, const nlohmann::json& body = nullptr);

}  // namespace hbemu::shell
