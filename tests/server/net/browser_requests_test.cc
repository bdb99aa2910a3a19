#include "server/net/browser_requests.h"

#include <gtest/gtest.h>

namespace hbemu::server {
namespace {

TEST(BrowserRequestsTest, HostOfAuthorityDropsPortBracketsSchemeAndTrailingDot) {
  EXPECT_EQ(HostOfAuthority("[::1]:9095"), "::1");
  EXPECT_EQ(HostOfAuthority("Example.COM.:80"), "example.com");
  EXPECT_EQ(HostOfAuthority("http://evil.example:8000"), "evil.example");
  EXPECT_EQ(HostOfAuthority(" localhost "), "localhost");
}

TEST(BrowserRequestsTest, NamesARebindingPageCanUseAreRefused) {
  HostAllowList allow;
  for (const char* host : {"evil.example", "evil.example:9095", "127.0.0.1.nip.io",
                           "localhost.evil.example", ":9095"}) {
    EXPECT_FALSE(HostHeaderAllowed(host, allow)) << host;
  }
}

TEST(BrowserRequestsTest, LoopbackNamesAddressesAndSingleLabelsAreAccepted) {
  HostAllowList allow;
  for (const char* host : {"", "localhost", "localhost:9095", "LocalHost.", "a.localhost",
                           "127.0.0.1:1", "[::1]", "192.168.1.9", "hbase", "hbase-emulator:9095"}) {
    EXPECT_TRUE(HostHeaderAllowed(host, allow)) << host;
  }
}

TEST(BrowserRequestsTest, AllowedNamesAndTheBindNameAreAccepted) {
  HostAllowList allow;
  std::string error;
  ASSERT_TRUE(ParseAllowedHosts("Emulator.Test, .corp.example", &allow.names, &error)) << error;
  allow.bind_address = "dev-box.lan";
  EXPECT_TRUE(HostHeaderAllowed("emulator.test:9095", allow));
  EXPECT_TRUE(HostHeaderAllowed("x.corp.example", allow));
  EXPECT_TRUE(HostHeaderAllowed("corp.example", allow));
  EXPECT_TRUE(HostHeaderAllowed("dev-box.lan", allow));
  EXPECT_FALSE(HostHeaderAllowed("notcorp.example", allow));
  EXPECT_FALSE(HostHeaderAllowed("emulator.test.evil.example", allow));
}

TEST(BrowserRequestsTest, AllowedHostsRejectsEmptyAndMalformedEntries) {
  std::vector<std::string> names;
  std::string error;
  EXPECT_FALSE(ParseAllowedHosts("", &names, &error));
  EXPECT_FALSE(ParseAllowedHosts("a.example,,b.example", &names, &error));
  EXPECT_FALSE(ParseAllowedHosts("http://a.example", &names, &error));
  EXPECT_NE(error.find("--allowed-hosts"), std::string::npos) << error;
}

TEST(BrowserRequestsTest, FormContentTypesAreTheOnesAPageSendsWithoutAPreflight) {
  EXPECT_TRUE(IsFormContentType("text/plain"));
  EXPECT_TRUE(IsFormContentType(" Text/Plain ; charset=utf-8"));
  EXPECT_TRUE(IsFormContentType("application/x-www-form-urlencoded"));
  EXPECT_TRUE(IsFormContentType("multipart/form-data; boundary=x"));
  EXPECT_FALSE(IsFormContentType("application/x-thrift"));
  EXPECT_FALSE(IsFormContentType("application/json"));
  EXPECT_FALSE(IsFormContentType(""));
}

}  // namespace
}  // namespace hbemu::server
