#include "server/gateway/batch_errors.h"

#include <utility>

#include "server/gateway/java_exceptions.h"

namespace hbemu::server {

using storage::Status;

namespace {

// The region server's name as HBase prints it. The start code is this process's start.
std::string ServerName(const BatchServer& server) {
  static const int64_t start_code = storage::Clock::System()->NowMillis();
  return server.host + "," + std::to_string(server.port) + "," + std::to_string(start_code);
}

// RetriesExhaustedWithDetailsException.getDesc: causes grouped, counted, in first-seen order.
std::string Describe(const std::vector<std::string>& causes, const std::string& servers) {
  std::vector<std::pair<std::string, size_t>> grouped;
  for (const std::string& cause : causes) {
    auto it = grouped.begin();
    while (it != grouped.end() && it->first != cause) ++it;
    if (it == grouped.end()) {
      grouped.emplace_back(cause, 1);
    } else {
      ++it->second;
    }
  }
  std::string text = "Failed " + std::to_string(causes.size()) + " action" +
                     (causes.size() == 1 ? "" : "s") + ": ";
  for (const auto& [cause, count] : grouped) {
    text += cause + ": " + std::to_string(count) + " time" + (count == 1 ? "" : "s") + ", ";
  }
  return text + "servers with issues: " + servers;
}

}  // namespace

std::string WholeBatchFailure(const Status& status, size_t actions, const BatchServer& server) {
  if (actions == 0) return "";
  switch (status.code()) {
    case Status::Code::kTableNotFound:  // the client's meta lookup fails: no server involved
      return Describe(std::vector<std::string>(actions, status.message()), "null");
    case Status::Code::kTableNotEnabled:  // the regions are offline: every server refuses
      return Describe(std::vector<std::string>(actions, "NotServingRegionException"),
                      ServerName(server));
    default:
      return "";
  }
}

std::string RowFailures(const std::vector<storage::Store::RowFailure>& failures,
                        const BatchServer& server) {
  std::vector<std::string> causes;
  for (const auto& failure : failures) {
    // A region server's exception reaches the client as "<class>: <message>"; a retryable one
    // is named by its simple class name alone.
    const Status& s = failure.status;
    causes.push_back(CanRetry(s) ? "IOException"
                                 : std::string(JavaExceptionClass(s)) + ": " + s.message());
  }
  return Describe(causes, ServerName(server));
}

}  // namespace hbemu::server
