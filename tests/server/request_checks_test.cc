// HBase's request checks (storage/request_checks.h) as both Thrift doors answer them: the same
// text for the same bad row, timestamp or time range, whichever door and call it arrives by.
#include "storage/request_checks.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <thrift/TApplicationException.h>

#include "server/gateway/scanner_registry.h"
#include "server/thrift1/hbase_handler.h"
#include "server/thrift2/thbase_handler.h"
#include "storage/clock.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::server {
namespace {

const std::map<std::string, std::string> kNoAttrs;

// What a call failed with, as its client sees the text; "" when it did not fail.
std::string FailureText(const std::function<void()>& call) {
  try {
    call();
  } catch (const thrift::IOError& e) {
    return e.message;
  } catch (const thrift::IllegalArgument& e) {
    return e.message;
  } catch (const thrift2::TIOError& e) {
    return e.message;
  } catch (const thrift2::TIllegalArgument& e) {
    return e.message;
  } catch (const std::exception& e) {  // ApplicationError: INTERNAL_ERROR, its text logged
    return e.what();
  }
  return "";
}

bool EndsWith(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

class RequestChecksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    scanners_ = std::make_unique<ScannerRegistry>(&clock_, 60000);
    thrift1_ = std::make_unique<HbaseHandler>(store_.get(), scanners_.get(),
                                              HbaseHandler::Options());
    thrift2_ = std::make_unique<ThbaseHandler>(store_.get(), scanners_.get(),
                                               ThbaseHandler::Options());
    storage::FamilyDescriptor f;
    f.name = "f";
    ASSERT_TRUE(store_->CreateTable("t", {f}).ok());
  }

  // Every call ends with `expected`, and names it (whatever prefix its door adds).
  void ExpectAll(const std::string& expected,
                 const std::vector<std::pair<std::string, std::function<void()>>>& calls) {
    for (const auto& [name, call] : calls) {
      const std::string text = FailureText(call);
      EXPECT_TRUE(EndsWith(text, expected)) << name << ": " << text;
    }
  }

  storage::ManualClock clock_{1700000000000};
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<ScannerRegistry> scanners_;
  std::unique_ptr<HbaseHandler> thrift1_;
  std::unique_ptr<ThbaseHandler> thrift2_;
};

thrift::Mutation Put1() {
  thrift::Mutation m;
  m.column = "f:q";
  m.value = "v";
  return m;
}

thrift2::TPut Put2(const std::string& row) {
  thrift2::TPut put;
  put.row = row;
  thrift2::TColumnValue v;
  v.family = "f";
  v.qualifier = "q";
  v.value = "v";
  put.columnValues = {v};
  return put;
}

thrift2::TIncrement Increment2(const std::string& row) {
  thrift2::TIncrement inc;
  inc.row = row;
  thrift2::TColumnIncrement c;
  c.family = "f";
  c.qualifier = "q";
  inc.columns = {c};
  return inc;
}

thrift2::TAppend Append2(const std::string& row) {
  thrift2::TAppend app;
  app.row = row;
  thrift2::TColumnValue c;
  c.family = "f";
  c.qualifier = "q";
  app.columns = {c};
  return app;
}

TEST_F(RequestChecksTest, AnEmptyRowGetsTheSameTextAtBothDoors) {
  const std::string text = storage::CheckRow("").message();
  ASSERT_EQ(text, "Row length is 0");
  thrift2::TResult result;
  ExpectAll(text, {
      {"thrift1 mutateRow", [&] { thrift1_->mutateRow("t", "", {Put1()}, kNoAttrs); }},
      {"thrift1 deleteAll", [&] { thrift1_->deleteAll("t", "", "f:q", kNoAttrs); }},
      {"thrift1 atomicIncrement", [&] { thrift1_->atomicIncrement("t", "", "f:q", 1); }},
      {"thrift2 put", [&] { thrift2_->put("t", Put2("")); }},
      {"thrift2 deleteSingle", [&] {
         thrift2::TDelete d;
         thrift2_->deleteSingle("t", d);
       }},
      {"thrift2 increment", [&] { thrift2_->increment(result, "t", Increment2("")); }},
      {"thrift2 append", [&] { thrift2_->append(result, "t", Append2("")); }},
  });
}

TEST_F(RequestChecksTest, ARowPastMaxRowLengthGetsTheSameTextAtBothDoors) {
  const std::string row(storage::kMaxRowLength + 1, 'r');
  const std::string text = storage::CheckRow(row).message();
  ASSERT_EQ(text, "Row length 32768 is > 32767");
  thrift2::TResult result;
  ExpectAll(text, {
      {"thrift1 mutateRow", [&] { thrift1_->mutateRow("t", row, {Put1()}, kNoAttrs); }},
      {"thrift1 deleteAllRow", [&] { thrift1_->deleteAllRow("t", row, kNoAttrs); }},
      {"thrift2 put", [&] { thrift2_->put("t", Put2(row)); }},
      {"thrift2 increment", [&] { thrift2_->increment(result, "t", Increment2(row)); }},
      {"thrift2 append", [&] { thrift2_->append(result, "t", Append2(row)); }},
  });
}

TEST_F(RequestChecksTest, ANegativeTimestampGetsTheSameTextAtBothDoors) {
  const std::string text = storage::CheckTimestamp(-5).message();
  ASSERT_EQ(text, "Timestamp cannot be negative. ts=-5");
  ExpectAll(text, {
      {"thrift1 mutateRowTs", [&] { thrift1_->mutateRowTs("t", "r", {Put1()}, -5, kNoAttrs); }},
      {"thrift1 deleteAllTs", [&] { thrift1_->deleteAllTs("t", "r", "f:q", -5, kNoAttrs); }},
      {"thrift1 mutateRowsTs", [&] {
         thrift::BatchMutation b;
         b.row = "r";
         b.mutations = {Put1()};
         thrift1_->mutateRowsTs("t", {b}, -5, kNoAttrs);
       }},
      {"thrift2 put", [&] {
         thrift2::TPut put = Put2("r");
         put.__set_timestamp(-5);
         thrift2_->put("t", put);
       }},
      {"thrift2 deleteSingle", [&] {
         thrift2::TDelete d;
         d.row = "r";
         d.__set_timestamp(-5);
         thrift2_->deleteSingle("t", d);
       }},
  });
}

TEST_F(RequestChecksTest, ANegativeTimeRangeGetsTheSameTextAtTheDoorAndInStorage) {
  const std::string text = storage::CheckTimeRange(-1, 5).message();
  ASSERT_EQ(text, "Timestamp cannot be negative. minStamp:-1, maxStamp:5");
  ExpectAll(text, {
      {"thrift2 get", [&] {
         thrift2::TGet get;
         get.row = "r";
         thrift2::TTimeRange range;
         range.minStamp = -1;
         range.maxStamp = 5;
         get.__set_timeRange(range);
         thrift2::TResult result;
         thrift2_->get(result, "t", get);
       }},
      {"storage Get", [&] {
         storage::ReadSpec spec;
         spec.time_range.min = -1;
         spec.time_range.max = 5;
         storage::RowResult result;
         const storage::Status s = store_->Get("t", "r", spec, &result);
         if (!s.ok()) throw std::runtime_error(s.message());
       }},
  });
}

}  // namespace
}  // namespace hbemu::server
