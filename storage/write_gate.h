#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace hbemu::storage {

// Data writes against the schema changes that take a table's keys away from them: a family's
// removal (whose sweep deletes the family's cells), a table's disable (after which a drop or
// truncate hands the table's cells to the sweeper) and a snapshot restore (which gives the name
// a new table id and the old one to the sweeper). A write holds the gate shared from its table
// lookup until its batch is written; a change holds it alone while it publishes the new
// descriptor. So every write either lands before the change, where the sweep finds its cells,
// or looks the table up after it and is refused (NoSuchColumnFamily, TableNotEnabled), as HBase
// refuses a put to a family being deleted. A cell can never land behind a running sweep and come
// back when the family is added again.
//
// A waiting change goes first: writes that arrive after it wait for it, so a steady stream of
// overlapping writes cannot keep a change out for good. Not reentrant: a holder must not enter
// again. Thread-safe.
class WriteGate {
 public:
  class WriteHold {
   public:
    explicit WriteHold(WriteGate* gate) : gate_(gate) {}
    WriteHold(WriteHold&& other) noexcept : gate_(other.gate_) { other.gate_ = nullptr; }
    WriteHold(const WriteHold&) = delete;
    WriteHold& operator=(const WriteHold&) = delete;
    WriteHold& operator=(WriteHold&&) = delete;
    ~WriteHold() {
      if (gate_ != nullptr) gate_->LeaveWrite();
    }

   private:
    WriteGate* gate_;
  };
  class ChangeHold {
   public:
    explicit ChangeHold(WriteGate* gate) : gate_(gate) {}
    ChangeHold(ChangeHold&& other) noexcept : gate_(other.gate_) { other.gate_ = nullptr; }
    ChangeHold(const ChangeHold&) = delete;
    ChangeHold& operator=(const ChangeHold&) = delete;
    ChangeHold& operator=(ChangeHold&&) = delete;
    ~ChangeHold() {
      if (gate_ != nullptr) gate_->LeaveChange();
    }

   private:
    WriteGate* gate_;
  };

  // Waits while a change runs or waits.
  [[nodiscard]] WriteHold EnterWrite();
  // Waits for the writes in flight (and any change before it) to finish.
  [[nodiscard]] ChangeHold EnterChange();

  // Tests: writes in flight, and changes running or waiting.
  size_t writes_for_testing() const;
  size_t changes_for_testing() const;

 private:
  void LeaveWrite();
  void LeaveChange();

  // A write's way in and out is two atomic operations while no change is about (every data
  // write passes here); the mutex and condition variable serve the waits.
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<size_t> writes_{0};   // writes holding the gate (and, briefly, ones backing off)
  std::atomic<size_t> changes_{0};  // changes holding the gate or waiting for it
  bool changing_ = false;           // guarded by mu_: a change holds the gate
};

}  // namespace hbemu::storage
