#include "server/gateway/batch_errors.h"

#include <unordered_map>
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

// RetriesExhaustedWithDetailsException.getDesc: each distinct cause once with its count, in
// first-seen order.
std::string Describe(size_t actions, const std::vector<std::pair<std::string, size_t>>& grouped,
                     const std::string& servers) {
  std::string text =
      "Failed " + std::to_string(actions) + " action" + (actions == 1 ? "" : "s") + ": ";
  for (const auto& [cause, count] : grouped) {
    text += cause;
    text += ": " + std::to_string(count) + " time" + (count == 1 ? "" : "s") + ", ";
  }
  return text + "servers with issues: " + servers;
}

}  // namespace

Status BatchTableStatus(const storage::Store& store, std::string_view table) {
  std::shared_ptr<const storage::TableDescriptor> descriptor;
  const Status s = store.DescribeTable(table, &descriptor);
  if (s.ok() && !descriptor->enabled) {
    return Status::TableNotEnabled(descriptor->name.ToString() + " is disabled.");
  }
  return s;
}

std::string WholeBatchFailure(const Status& status, size_t actions, const BatchServer& server) {
  if (actions == 0) return "";
  switch (status.code()) {
    case Status::Code::kTableNotFound:  // the client's meta lookup fails: no server involved
      return Describe(actions, {{status.message(), actions}}, "null");
    case Status::Code::kTableNotEnabled:  // the regions are offline: every server refuses
      return Describe(actions, {{"NotServingRegionException", actions}}, ServerName(server));
    default:
      return "";
  }
}

std::string RowFailures(const std::vector<storage::Store::RowFailure>& failures,
                        const BatchServer& server) {
  std::vector<std::pair<std::string, size_t>> grouped;
  std::unordered_map<std::string, size_t> index;  // cause -> its place in grouped
  for (const auto& failure : failures) {
    // A region server's exception reaches the client as "<class>: <message>"; a retryable one
    // is named by its simple class name alone.
    const Status& s = failure.status;
    std::string cause = CanRetry(s) ? "IOException"
                                    : std::string(JavaExceptionClass(s)) + ": " + s.message();
    auto [it, added] = index.try_emplace(std::move(cause), grouped.size());
    if (added) {
      grouped.emplace_back(it->first, 1);
    } else {
      ++grouped[it->second].second;
    }
  }
  return Describe(failures.size(), grouped, ServerName(server));
}

}  // namespace hbemu::server
