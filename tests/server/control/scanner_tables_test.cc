#include "server/control/scanner_tables.h"

#include <gtest/gtest.h>

namespace hbemu::server::control {
namespace {

TEST(ScannerTablesTest, AScannerNamesItsTableUntilClosedPerService) {
  ScannerTables tables;
  tables.Opened("thrift1", 7, "events");
  EXPECT_EQ(tables.TableOf("thrift1", 7), "events");
  EXPECT_EQ(tables.TableOf("thrift2", 7), "");  // the services' scanner ids are their own
  tables.Closed("thrift1", 7);
  EXPECT_EQ(tables.TableOf("thrift1", 7), "");
}

TEST(ScannerTablesTest, TheOldestScannersGoPastTheBound) {
  ScannerTables tables;
  for (int64_t id = 0; id < static_cast<int64_t>(ScannerTables::kMaxScanners) + 2; ++id) {
    tables.Opened("thrift2", id, "t" + std::to_string(id));
  }
  EXPECT_EQ(tables.TableOf("thrift2", 0), "");
  EXPECT_EQ(tables.TableOf("thrift2", 1), "");
  EXPECT_EQ(tables.TableOf("thrift2", 2), "t2");
}

TEST(ScannerTablesTest, OpensAndClosesAreKnownByMethod) {
  for (const char* m : {"scannerOpen", "scannerOpenWithScan", "scannerOpenWithStopTs", "openScanner"}) {
    EXPECT_TRUE(ScannerTables::Opens(m)) << m;
  }
  EXPECT_FALSE(ScannerTables::Opens("scannerGetList"));
  EXPECT_TRUE(ScannerTables::Closes("scannerClose"));
  EXPECT_TRUE(ScannerTables::Closes("closeScanner"));
  EXPECT_FALSE(ScannerTables::Closes("getScannerRows"));
}

}  // namespace
}  // namespace hbemu::server::control
