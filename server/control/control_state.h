#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/control/call_log.h"
#include "server/control/faults.h"
#include "server/control/scanner_tables.h"
#include "server/gateway/call_gate.h"
#include "server/net/call_hook.h"
#include "storage/clock.h"

namespace hbemu::server::control {

// What the clock, fault and call-log controls work on, owned by main for the life of the
// process when --test-controls is on. Thread-safe.
class ControlState {
 public:
  ControlState();
  ~ControlState();

  // The store's and the scanner registries' clock.
  storage::ControlledClock* clock() { return &clock_; }
  FaultRules& faults() { return faults_; }
  CallLog& calls() { return calls_; }
  ScannerTables& scanners() { return scanners_; }

  // The hook a service's port runs every call through ("thrift1", "thrift2").
  CallHook* HookFor(const std::string& service);
  // The gate a door that describes its own calls runs them through ("rest").
  CallGate* GateFor(const std::string& service);
  // After a change of the rules or of the log's switch: whether calls go through the hooks.
  void Refresh();

  // Run after every clock change (the scanner registries expire what the new time expires).
  void OnClockChange(std::function<void()> listener);
  void ClockChanged();

  // Prometheus lines for /metrics.
  std::string PrometheusText() const;

 private:
  class Hook;
  storage::ControlledClock clock_;
  FaultRules faults_;
  CallLog calls_;
  ScannerTables scanners_;
  std::atomic<bool> active_{true};
  std::mutex mu_;
  std::vector<std::unique_ptr<Hook>> hooks_;
  std::vector<std::unique_ptr<CallGate>> gates_;
  std::vector<std::function<void()>> clock_listeners_;
};

}  // namespace hbemu::server::control
