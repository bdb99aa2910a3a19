#include "server/control/call_log.h"

#include <algorithm>

#include "server/control/method_pattern.h"
#include "server/limits.h"

namespace hbemu::server::control {
namespace {

using nlohmann::json;

size_t Strings(const std::vector<std::string>& v) {
  size_t n = 0;
  for (const std::string& s : v) n += s.size() + sizeof(std::string);
  return n;
}

}  // namespace

size_t CallRecord::Bytes() const {
  return sizeof(CallRecord) + service.size() + peer.size() + call.method.size() +
         call.table.size() + call.row.size() + call.stop_row.size() + call.filter.size() +
         Strings(call.rows) + Strings(call.columns) + exception.size() + error_class.size() +
         error_message.size() + reason.size() + fault.size();
}

json CallRecord::ToJson() const {
  // Row keys are bytes: JSON carries them as text with invalid UTF-8 replaced (ControlJson).
  json out{{"seq", seq},
           {"started_unix_ms", started_unix_ms},
           {"service", service},
           {"method", call.method},
           {"peer", peer},
           {"duration_us", duration_us},
           {"outcome", error ? "error" : "ok"}};
  if (!call.table.empty()) out["table"] = call.table;
  if (!call.row.empty()) out["row"] = call.row;
  if (!call.stop_row.empty()) out["stop_row"] = call.stop_row;
  if (call.row_count > 0) {
    out["rows"] = call.rows;
    out["row_count"] = call.row_count;
  }
  if (!call.filter.empty()) out["filter"] = call.filter;
  if (call.caching >= 0) out["caching"] = call.caching;
  if (call.batch_size >= 0) out["batch_size"] = call.batch_size;
  if (call.scanner_id >= 0) out["scanner_id"] = call.scanner_id;
  if (call.num_rows >= 0) out["num_rows"] = call.num_rows;
  if (!call.columns.empty()) out["columns"] = call.columns;
  if (error) {
    out["exception"] = exception;
    if (!error_class.empty()) out["error_class"] = error_class;
    out["error"] = error_message;
    out["reason"] = reason.empty() ? error_message : reason;
  }
  if (!fault.empty()) out["fault"] = fault;
  return out;
}

CallLog::CallLog() = default;

void CallLog::Add(CallRecord record) {
  const Limits& limits = CurrentLimits();
  const size_t max_calls = static_cast<size_t>(std::max<int64_t>(limits.call_log_calls, 0));
  const size_t max_bytes = static_cast<size_t>(std::max<int64_t>(limits.call_log_bytes, 0));
  const size_t size = record.Bytes();
  std::lock_guard<std::mutex> lock(mu_);
  record.seq = next_seq_++;
  calls_.push_back(std::move(record));
  bytes_ += size;
  while (!calls_.empty() && (calls_.size() > max_calls || bytes_ > max_bytes)) {
    bytes_ -= calls_.front().Bytes();
    calls_.pop_front();
    ++dropped_;
  }
}

uint64_t CallLog::Mark() const {
  std::lock_guard<std::mutex> lock(mu_);
  return next_seq_ - 1;
}

CallPage CallLog::Query(const CallQuery& query) const {
  CallPage out;
  // The control route refuses names MethodPattern does not know; another caller's unknown name
  // still finds the calls a client made under it.
  MethodPattern pattern;
  std::string unknown;
  const bool by_pattern =
      !query.method.empty() && MethodPattern::Parse(query.service, query.method, &pattern, &unknown);
  std::lock_guard<std::mutex> lock(mu_);
  // Newest first to apply `limit`; only the page is copied.
  std::vector<const CallRecord*> selected;
  for (auto it = calls_.rbegin(); it != calls_.rend(); ++it) {
    const CallRecord& r = *it;
    if (r.seq <= query.since) break;
    if (!query.table.empty() && r.call.table != query.table) continue;
    if (by_pattern ? !pattern.Matches(r.service, r.call.method)
                   : !query.method.empty() && r.call.method != query.method) {
      continue;
    }
    if (!query.service.empty() && r.service != query.service) continue;
    if (query.errors_only && !r.error) continue;
    selected.push_back(&r);
    if (query.limit > 0 && selected.size() >= query.limit) break;
  }
  out.selected = selected.size();
  const size_t n = query.page > 0 ? std::min(query.page, selected.size()) : selected.size();
  out.calls.reserve(n);
  for (size_t i = 0; i < n; ++i) out.calls.push_back(*selected[selected.size() - 1 - i]);
  return out;
}

void CallLog::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  calls_.clear();
  bytes_ = 0;
}

size_t CallLog::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return calls_.size();
}

size_t CallLog::bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bytes_;
}

uint64_t CallLog::dropped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dropped_;
}

}  // namespace hbemu::server::control
