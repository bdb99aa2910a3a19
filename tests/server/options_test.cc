#include "server/options.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace hbemu::server {
namespace {

bool Parse(std::vector<std::string> args, ServerOptions* options, std::string* error) {
  args.insert(args.begin(), "hbase-emulator");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  bool help = false;
  return ParseServerOptions(static_cast<int>(argv.size()), argv.data(), options, &help, error);
}

TEST(ServerOptionsTest, WithoutModeFlagsEveryModeIsDetected) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(Parse({}, &options, &error)) << error;
  EXPECT_FALSE(options.thrift.forcing.transport.has_value());
  EXPECT_FALSE(options.thrift.forcing.protocol.has_value());
  EXPECT_EQ(options.thrift.idle_timeout_ms, 60000);
  EXPECT_EQ(options.thrift.bind_address, "127.0.0.1");
  // HBase 2.6's Thrift1 gateway keeps an idle scanner 120 s (checked: alive at 75 s, gone at 130 s).
  EXPECT_EQ(options.scanner_timeout_ms, 120000);
}

TEST(ServerOptionsTest, TestControlsAreOffByDefaultAndLoopbackOnlyUnlessForced) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(Parse({}, &options, &error)) << error;
  EXPECT_FALSE(options.test_controls);
  ASSERT_TRUE(Parse({"--test-controls"}, &options, &error)) << error;
  EXPECT_TRUE(options.test_controls);
  EXPECT_FALSE(options.test_controls_remote);

  for (const std::vector<std::string>& bind :
       {std::vector<std::string>{"--bind", "0.0.0.0"}, {"--admin-bind", "10.1.2.3"}}) {
    ServerOptions refused;
    std::vector<std::string> args = bind;
    args.push_back("--test-controls");
    EXPECT_FALSE(Parse(args, &refused, &error));
    EXPECT_NE(error.find("--test-controls-remote"), std::string::npos) << error;
    ServerOptions forced;
    args.back() = "--test-controls-remote";
    ASSERT_TRUE(Parse(args, &forced, &error)) << error;
    EXPECT_TRUE(forced.test_controls && forced.test_controls_remote);
  }
  ServerOptions no_admin;
  EXPECT_FALSE(Parse({"--test-controls", "--no-admin"}, &no_admin, &error));
  EXPECT_NE(error.find("--no-admin"), std::string::npos) << error;
}

TEST(ServerOptionsTest, AllowedHostsAreListedNamesAndABadOneIsRefused) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(Parse({"--allowed-hosts", "Dev.Example,.corp.example"}, &options, &error)) << error;
  EXPECT_EQ(options.allowed_hosts, (std::vector<std::string>{"dev.example", ".corp.example"}));
  ServerOptions bad;
  EXPECT_FALSE(Parse({"--allowed-hosts", "http://dev.example/"}, &bad, &error));
  EXPECT_NE(error.find("--allowed-hosts"), std::string::npos) << error;
}

TEST(ServerOptionsTest, FramedAndCompactInsistOnTheirModes) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(Parse({"-f", "--compact"}, &options, &error)) << error;
  EXPECT_EQ(options.thrift.forcing.transport, WireTransport::kFramed);
  EXPECT_EQ(options.thrift.forcing.protocol, WireProtocol::kCompact);
}

// HBase's pairs: -f alone is framed + binary, -c alone buffered + compact; neither serves HTTP.
TEST(ServerOptionsTest, FramedOrCompactAloneInsistOnHBasesPairs) {
  ServerOptions framed;
  std::string error;
  ASSERT_TRUE(Parse({"--framed"}, &framed, &error)) << error;
  EXPECT_EQ(framed.thrift.forcing.transport, WireTransport::kFramed);
  EXPECT_EQ(framed.thrift.forcing.protocol, WireProtocol::kBinary);
  ServerOptions compact;
  ASSERT_TRUE(Parse({"-c"}, &compact, &error)) << error;
  EXPECT_EQ(compact.thrift.forcing.transport, WireTransport::kBuffered);
  EXPECT_EQ(compact.thrift.forcing.protocol, WireProtocol::kCompact);
}

TEST(ServerOptionsTest, HttpIsAlwaysBinaryAndIgnoresCompactLikeHBase) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(Parse({"--http", "-c"}, &options, &error)) << error;
  EXPECT_EQ(options.thrift.forcing.transport, WireTransport::kHttp);
  EXPECT_EQ(options.thrift.forcing.protocol, WireProtocol::kBinary);
  ASSERT_EQ(options.warnings.size(), 1u);
  EXPECT_NE(options.warnings[0].find("--compact is ignored"), std::string::npos);
}

TEST(ServerOptionsTest, HttpWithFramedIsRefused) {
  ServerOptions options;
  std::string error;
  EXPECT_FALSE(Parse({"--http", "--framed"}, &options, &error));
  EXPECT_NE(error.find("--http and --framed"), std::string::npos) << error;
}

TEST(ServerOptionsTest, InitScriptsAreKeptInOrderAndRefusedWithHttp) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(Parse({"--init", "a.hbase", "--init=b.hbase"}, &options, &error)) << error;
  EXPECT_EQ(options.init_scripts, (std::vector<std::string>{"a.hbase", "b.hbase"}));
  ServerOptions http;
  EXPECT_FALSE(Parse({"--http", "--init", "a.hbase"}, &http, &error));
  EXPECT_NE(error.find("--init"), std::string::npos);
}

TEST(ServerOptionsTest, IdleTimeoutTakesHBaseAndLongSpellings) {
  for (const char* flag : {"-t", "--readTimeout", "--idle-timeout-ms"}) {
    ServerOptions options;
    std::string error;
    ASSERT_TRUE(Parse({flag, "1500"}, &options, &error)) << flag << ": " << error;
    EXPECT_EQ(options.thrift.idle_timeout_ms, 1500) << flag;
  }
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(Parse({"--idle-timeout-ms=0"}, &options, &error)) << error;
  EXPECT_EQ(options.thrift.idle_timeout_ms, 0);
  EXPECT_FALSE(Parse({"-t", "-5"}, &options, &error));
}

TEST(ServerOptionsTest, AdminPortDefaultsToHBaseThriftInfoPortAndCanBeTurnedOff) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(Parse({}, &options, &error)) << error;
  EXPECT_TRUE(options.admin_enabled);
  EXPECT_EQ(options.admin_port, 9095);
  ServerOptions off;
  ASSERT_TRUE(Parse({"--no-admin"}, &off, &error)) << error;
  EXPECT_FALSE(off.admin_enabled);
  ServerOptions given;
  ASSERT_TRUE(Parse({"--admin-port", "18095"}, &given, &error)) << error;
  EXPECT_EQ(given.admin_port, 18095);
  ServerOptions bad;
  EXPECT_FALSE(Parse({"--admin-port", "70000"}, &bad, &error));
}

TEST(ServerOptionsTest, FreeThriftPortMeansAFreeAdminPortUnlessOneIsGiven) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(Parse({"--port", "0"}, &options, &error)) << error;
  EXPECT_EQ(options.admin_port, 0);
  ServerOptions given;
  ASSERT_TRUE(Parse({"--port", "0", "--admin-port=19095"}, &given, &error)) << error;
  EXPECT_EQ(given.admin_port, 19095);
}

TEST(ServerOptionsTest, LimitFlagSetsOneLimitAndMaxMessageMbIsTheMessageLimit) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(Parse({"--limit", "filter_depth=40", "--limit=open_scanners=7", "--max-message-mb", "3"},
                    &options, &error))
      << error;
  EXPECT_EQ(options.limits.filter_depth, 40);
  EXPECT_EQ(options.limits.open_scanners, 7);
  EXPECT_EQ(options.limits.message_bytes, 3 << 20);
  EXPECT_EQ(options.thrift.max_message_bytes, 3u << 20);
  ASSERT_TRUE(Parse({"--limit", "message_bytes=2M"}, &options, &error)) << error;
  EXPECT_EQ(options.thrift.max_message_bytes, 2u << 20);
}

TEST(ServerOptionsTest, UnknownLimitIsAnError) {
  ServerOptions options;
  std::string error;
  EXPECT_FALSE(Parse({"--limit", "bogus=1"}, &options, &error));
  EXPECT_NE(error.find("unknown limit 'bogus'"), std::string::npos) << error;
}

TEST(ServerOptionsTest, TheConsoleStaysOnLoopbackUnlessAdminBindSaysOtherwise) {
  ServerOptions loopback;
  std::string error;
  ASSERT_TRUE(Parse({}, &loopback, &error)) << error;
  EXPECT_EQ(loopback.admin_bind_address, "127.0.0.1");
  EXPECT_TRUE(loopback.warnings.empty());

  ServerOptions all;
  ASSERT_TRUE(Parse({"--bind", "0.0.0.0"}, &all, &error)) << error;
  EXPECT_EQ(all.admin_bind_address, "127.0.0.1");
  ASSERT_EQ(all.warnings.size(), 1u);
  EXPECT_NE(all.warnings[0].find("no authentication"), std::string::npos);

  ServerOptions v6;
  ASSERT_TRUE(Parse({"-b", "::"}, &v6, &error)) << error;
  EXPECT_EQ(v6.admin_bind_address, "::1");

  ServerOptions asked;
  ASSERT_TRUE(Parse({"--bind", "0.0.0.0", "--admin-bind=0.0.0.0"}, &asked, &error)) << error;
  EXPECT_EQ(asked.admin_bind_address, "0.0.0.0");
  ASSERT_EQ(asked.warnings.size(), 1u);
  EXPECT_NE(asked.warnings[0].find("admin console"), std::string::npos);

  ServerOptions console_only;
  ASSERT_TRUE(Parse({"--admin-bind", "10.0.0.1"}, &console_only, &error)) << error;
  ASSERT_EQ(console_only.warnings.size(), 1u);
  EXPECT_EQ(console_only.warnings[0].find("admin console on 10.0.0.1"), 0u)
      << console_only.warnings[0];

  ServerOptions other_loopback;
  ASSERT_TRUE(Parse({"--bind", "127.0.0.2"}, &other_loopback, &error)) << error;
  EXPECT_EQ(other_loopback.admin_bind_address, "127.0.0.2");
  EXPECT_TRUE(other_loopback.warnings.empty());

  ServerOptions no_admin;
  ASSERT_TRUE(Parse({"--admin-bind", "10.0.0.1", "--no-admin"}, &no_admin, &error)) << error;
  EXPECT_TRUE(no_admin.warnings.empty());
  EXPECT_FALSE(Parse({"--admin-bind="}, &no_admin, &error));
}

// A container binds every door everywhere; its log should carry one warning, not three.
TEST(ServerOptionsTest, ThriftRestAndConsoleBeyondLoopbackGiveOneCombinedWarning) {
  ServerOptions same;
  std::string error;
  ASSERT_TRUE(Parse({"--bind", "0.0.0.0", "--admin-bind", "0.0.0.0"}, &same, &error)) << error;
  ASSERT_EQ(same.warnings.size(), 1u);
  EXPECT_EQ(same.warnings[0],
            "Thrift and REST ports and admin console on 0.0.0.0: there is no authentication, "
            "anyone who "
            "can reach them can read and write every table and browse every stored cell");

  ServerOptions apart;
  ASSERT_TRUE(Parse({"-b", "::", "--admin-bind", "10.0.0.1"}, &apart, &error)) << error;
  ASSERT_EQ(apart.warnings.size(), 1u);
  EXPECT_EQ(apart.warnings[0].find("Thrift and REST ports on :: and admin console on 10.0.0.1: "),
            0u)
      << apart.warnings[0];

  ServerOptions thrift_only;
  ASSERT_TRUE(Parse({"--bind", "0.0.0.0"}, &thrift_only, &error)) << error;
  ASSERT_EQ(thrift_only.warnings.size(), 1u);
  EXPECT_EQ(thrift_only.warnings[0].find("Thrift and REST ports on 0.0.0.0: "), 0u);
  EXPECT_EQ(thrift_only.warnings[0].find("admin console"), std::string::npos);

  ServerOptions no_rest;
  ASSERT_TRUE(Parse({"--bind", "0.0.0.0", "--no-rest"}, &no_rest, &error)) << error;
  ASSERT_EQ(no_rest.warnings.size(), 1u);
  EXPECT_EQ(no_rest.warnings[0].find("Thrift ports on 0.0.0.0: "), 0u) << no_rest.warnings[0];
}

TEST(ServerOptionsTest, HealthCheckAsksTheAdminPortGivenAlongside) {
  ServerOptions plain;
  std::string error;
  ASSERT_TRUE(Parse({}, &plain, &error)) << error;
  EXPECT_FALSE(plain.health_check);

  ServerOptions by_default;
  ASSERT_TRUE(Parse({"--health-check"}, &by_default, &error)) << error;
  EXPECT_TRUE(by_default.health_check);
  EXPECT_EQ(by_default.admin_port, 9095);
  EXPECT_EQ(by_default.admin_bind_address, "127.0.0.1");

  ServerOptions given;
  ASSERT_TRUE(Parse({"--admin-port", "18095", "--health-check"}, &given, &error)) << error;
  EXPECT_EQ(given.admin_port, 18095);

  // The image's entrypoint flags in front of it change nothing about where it asks.
  ServerOptions container;
  ASSERT_TRUE(Parse({"--bind", "0.0.0.0", "--admin-bind", "0.0.0.0", "--data-dir", "/data",
                     "--health-check"},
                    &container, &error))
      << error;
  EXPECT_EQ(container.admin_port, 9095);
}

TEST(ServerOptionsTest, HealthCheckWithoutAnAdminPortToAskIsRefused) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--health-check", "--no-admin"}, {"--health-check", "--port", "0"},
        {"--health-check", "--admin-port", "0"}}) {
    ServerOptions options;
    std::string error;
    EXPECT_FALSE(Parse(args, &options, &error)) << args[1];
    EXPECT_NE(error.find("--health-check"), std::string::npos) << error;
  }
}

TEST(ServerOptionsTest, HealthCheckIsInTheUsageText) {
  EXPECT_NE(ServerUsage().find("--health-check"), std::string::npos);
}

TEST(ServerOptionsTest, LoopbackAddressesAreTheLoopbackNetAndLocalhost) {
  for (const char* a : {"127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "::ffff:127.0.0.1"}) {
    EXPECT_TRUE(IsLoopbackAddress(a)) << a;
  }
  for (const char* a : {"0.0.0.0", "::", "10.0.0.1", "192.168.1.1", "example.com", "", "128.0.0.1"}) {
    EXPECT_FALSE(IsLoopbackAddress(a)) << a;
  }
}

}  // namespace
}  // namespace hbemu::server

namespace hbemu::server {
namespace {

bool ParseRest(std::vector<std::string> args, ServerOptions* options, std::string* error) {
  std::vector<std::string> argv_storage = {"hbase-emulator"};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& arg : argv_storage) argv.push_back(arg.data());
  bool help = false;
  return ParseServerOptions(static_cast<int>(argv.size()), argv.data(), options, &help, error);
}

TEST(ServerOptionsTest, RestPortDefaultsToHBases8080OnTheBindAddressAndCanBeTurnedOff) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(ParseRest({}, &options, &error)) << error;
  EXPECT_TRUE(options.rest_enabled);
  EXPECT_EQ(options.rest_port, 8080);
  EXPECT_FALSE(options.rest_port_given);
  EXPECT_EQ(options.rest_bind_address, "127.0.0.1");
  ServerOptions off;
  ASSERT_TRUE(ParseRest({"--no-rest"}, &off, &error)) << error;
  EXPECT_FALSE(off.rest_enabled);
  ServerOptions given;
  ASSERT_TRUE(ParseRest({"--rest-port", "18080", "--rest-bind", "::1"}, &given, &error)) << error;
  EXPECT_EQ(given.rest_port, 18080);
  EXPECT_TRUE(given.rest_port_given);
  EXPECT_EQ(given.rest_bind_address, "::1");
  ServerOptions bad;
  EXPECT_FALSE(ParseRest({"--rest-port", "70000"}, &bad, &error));
}

TEST(ServerOptionsTest, FreeThriftPortMeansAFreeRestPortUnlessOneIsGiven) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(ParseRest({"--port", "0"}, &options, &error)) << error;
  EXPECT_EQ(options.rest_port, 0);
  ServerOptions given;
  ASSERT_TRUE(ParseRest({"--port", "0", "--rest-port=18081"}, &given, &error)) << error;
  EXPECT_EQ(given.rest_port, 18081);
}

TEST(ServerOptionsTest, RestBindBeyondLoopbackAloneIsWarnedAbout) {
  ServerOptions options;
  std::string error;
  ASSERT_TRUE(ParseRest({"--rest-bind", "0.0.0.0"}, &options, &error)) << error;
  ASSERT_EQ(options.warnings.size(), 1u);
  EXPECT_NE(options.warnings[0].find("REST gateway on 0.0.0.0"), std::string::npos);
}

}  // namespace
}  // namespace hbemu::server
