#include "server/control/call_log.h"

#include <gtest/gtest.h>

#include "server/limits.h"

namespace hbemu::server::control {
namespace {

CallRecord Record(const std::string& method, const std::string& table, bool error = false) {
  CallRecord r;
  r.service = "thrift1";
  r.call.method = method;
  r.call.table = table;
  r.error = error;
  if (error) r.error_message = "boom";
  return r;
}

TEST(CallLogTest, AQueryMayNameAHappybaseOperationOrAGlob) {
  CallLog log;
  log.Add(Record("scannerOpenWithScan", "t"));
  log.Add(Record("scannerGetList", "t"));
  log.Add(Record("getRowWithColumns", "t"));
  log.Add(Record("scannerClose", "t"));
  CallQuery scan;
  scan.method = "Table.scan";
  EXPECT_EQ(log.Query(scan).calls.size(), 3u);
  CallQuery glob;
  glob.method = "scanner*";
  EXPECT_EQ(log.Query(glob).calls.size(), 3u);
  CallQuery made_up;  // a name a client made up is still found as it was logged
  log.Add(Record("madeUp", "t"));
  made_up.method = "madeUp";
  EXPECT_EQ(log.Query(made_up).calls.size(), 1u);
}

class ScopedLimits {
 public:
  explicit ScopedLimits(const Limits& limits) : saved_(CurrentLimits()) { SetLimits(limits); }
  ~ScopedLimits() { SetLimits(saved_); }

 private:
  Limits saved_;
};

TEST(CallLogTest, QueriesBySinceTableMethodAndErrors) {
  CallLog log;
  log.Add(Record("getRow", "a"));
  const uint64_t mark = log.Mark();
  log.Add(Record("mutateRow", "a", true));
  log.Add(Record("getRow", "b"));
  EXPECT_EQ(mark, 1u);
  EXPECT_EQ(log.Query({}).calls.size(), 3u);
  CallQuery since;
  since.since = mark;
  ASSERT_EQ(log.Query(since).calls.size(), 2u);
  EXPECT_EQ(log.Query(since).calls[0].call.method, "mutateRow");  // oldest first
  CallQuery by_table;
  by_table.table = "a";
  EXPECT_EQ(log.Query(by_table).calls.size(), 2u);
  CallQuery by_method;
  by_method.method = "getRow";
  EXPECT_EQ(log.Query(by_method).calls.size(), 2u);
  CallQuery errors;
  errors.errors_only = true;
  ASSERT_EQ(log.Query(errors).calls.size(), 1u);
  EXPECT_EQ(log.Query(errors).calls[0].ToJson()["reason"], "boom");
}

TEST(CallLogTest, KeepsTheNewestCallsWithinItsCountAndByteLimits) {
  Limits limits;
  limits.call_log_calls = 3;
  ScopedLimits scoped(limits);
  CallLog log;
  for (int i = 0; i < 5; ++i) log.Add(Record("m" + std::to_string(i), "t"));
  const auto calls = log.Query({}).calls;
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls.front().call.method, "m2");
  EXPECT_EQ(log.dropped(), 2u);

  limits.call_log_calls = 1000;
  limits.call_log_bytes = static_cast<int64_t>(Record("m", "t").Bytes()) * 2 + 100;
  SetLimits(limits);
  CallLog small;
  for (int i = 0; i < 10; ++i) small.Add(Record("m", "t"));
  EXPECT_LE(small.bytes(), static_cast<size_t>(limits.call_log_bytes));
  EXPECT_EQ(small.size(), 2u);
}

// A page is the oldest calls of what the query selected (the newest `limit` after `since`), so
// asking again from the last one's seq gives the rest.
TEST(CallLogTest, APageHoldsTheOldestOfTheSelectionAndSaysHowManyItSelected) {
  CallLog log;
  for (int i = 0; i < 10; ++i) log.Add(Record("m" + std::to_string(i), "t"));
  CallQuery q;
  q.limit = 6;  // m4..m9
  q.page = 4;
  CallPage page = log.Query(q);
  EXPECT_EQ(page.selected, 6u);
  ASSERT_EQ(page.calls.size(), 4u);
  EXPECT_EQ(page.calls.front().call.method, "m4");
  EXPECT_EQ(page.calls.back().call.method, "m7");
  q.since = page.calls.back().seq;
  page = log.Query(q);
  EXPECT_EQ(page.selected, 2u);
  ASSERT_EQ(page.calls.size(), 2u);
  EXPECT_EQ(page.calls.front().call.method, "m8");
  EXPECT_EQ(page.calls.back().call.method, "m9");
}

TEST(CallLogTest, ClearEmptiesButMarksKeepCounting) {
  CallLog log;
  log.Add(Record("a", "t"));
  log.Clear();
  EXPECT_EQ(log.size(), 0u);
  log.Add(Record("b", "t"));
  EXPECT_EQ(log.Mark(), 2u);
}

}  // namespace
}  // namespace hbemu::server::control
