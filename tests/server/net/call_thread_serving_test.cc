#include <dirent.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "tests/server/net/thrift_server_testing.h"
#include "tests/test_util.h"

// A connection calling back to back is served by a call thread of its own (connection.h).
namespace hbemu::server::thrift_server_testing {
namespace {

using testutil::WaitUntil;

// Calls back to back, as a test loop or a benchmark does, until a call thread serves the
// connection (the call after a reply must come within a couple of milliseconds, which a loaded
// machine can miss now and then).
void CallUntilACallThreadServes(ThriftServer& server, Client& client) {
  for (int i = 0; i < 5000 && server.BusyCallThreads() == 0; ++i) {
    ExpectEcho(client.GetRow("t", std::to_string(i)), "t", std::to_string(i));
  }
  ASSERT_EQ(server.BusyCallThreads(), 1u);
}

TEST(ThriftServerTest, BackToBackClientGetsACallThreadUntilItGoesQuiet) {
  auto handler = std::make_shared<EchoHandler>();
  auto server = StartServer(handler, Detecting());
  Client client(server->port(), Wire{});
  Client other(server->port(), Wire{/*framed=*/true});
  ExpectEcho(other.GetRow("t", "first"), "t", "first");
  CallUntilACallThreadServes(*server, client);
  EXPECT_EQ(server->stats().on_call_threads.load(), 1);
  // The call thread sends what the socket does not take at once, too.
  auto large = client.GetRow("large", "3000000");
  ASSERT_EQ(large.size(), 1u);
  EXPECT_EQ(large[0].columns["cf:table"].value.size(), 3000000u);
  for (int i = 0; i < 20; ++i) ExpectEcho(client.GetRow("t", "again"), "t", "again");
  // The loop's other connections are served meanwhile.
  ExpectEcho(other.GetRow("t", "other"), "t", "other");
  // Quiet for longer than a call thread waits: the connection goes back to its loop and holds
  // no thread, and its next call is served there.
  EXPECT_TRUE(WaitUntil([&] { return server->BusyCallThreads() == 0; }));
  EXPECT_EQ(server->stats().on_call_threads.load(), 0);
  ExpectEcho(client.GetRow("t", "after"), "t", "after");
}

// Context switches so far of this process's event-loop threads (named "hbemu-loop"): one per
// wake-up of a loop that was waiting in epoll.
uint64_t EventLoopSwitches() {
  uint64_t total = 0;
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return 0;
  while (dirent* task = readdir(tasks)) {
    const std::string dir = std::string("/proc/self/task/") + task->d_name;
    std::ifstream comm(dir + "/comm");
    std::string name;
    if (!std::getline(comm, name) || name != "hbemu-loop") continue;
    std::ifstream status(dir + "/status");
    for (std::string line; std::getline(status, line);) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos && line.find("ctxt_switches") != std::string::npos) {
        total += std::stoull(line.substr(colon + 1));
      }
    }
  }
  closedir(tasks);
  return total;
}

// asio registers every socket for edge-triggered readiness; a socket a call thread serves must
// leave the loop's epoll set, or every call arriving on it wakes the loop for nothing.
TEST(ThriftServerTest, CallsServedOnACallThreadDoNotWakeTheEventLoop) {
  auto handler = std::make_shared<EchoHandler>();
  auto server = StartServer(handler, Detecting());
  Client client(server->port(), Wire{});
  CallUntilACallThreadServes(*server, client);
  const uint64_t before = EventLoopSwitches();
  ASSERT_GT(before, 0u);  // the loop thread was found
  constexpr int kCalls = 2000;
  for (int i = 0; i < kCalls; ++i) {
    ExpectEcho(client.GetRow("t", std::to_string(i)), "t", std::to_string(i));
  }
  ASSERT_EQ(server->BusyCallThreads(), 1u);  // served by the call thread throughout
  // Before the socket left the epoll set this was about one per call.
  EXPECT_LT(EventLoopSwitches() - before, kCalls / 10u);
  // Given back to its loop, the connection is served there again.
  EXPECT_TRUE(WaitUntil([&] { return server->BusyCallThreads() == 0; }));
  ExpectEcho(client.GetRow("t", "after"), "t", "after");
}

TEST(ThriftServerTest, WithoutCallThreadsEveryCallStaysOnTheLoops) {
  auto handler = std::make_shared<EchoHandler>();
  ServerMode mode = Detecting();
  mode.call_threads = 0;
  auto server = StartServer(handler, mode);
  Client client(server->port(), Wire{});
  for (int i = 0; i < 500; ++i) {
    ExpectEcho(client.GetRow("t", std::to_string(i)), "t", std::to_string(i));
    ASSERT_EQ(server->BusyCallThreads(), 0u);
  }
}

TEST(ThriftServerTest, IdleTimeoutStillClosesAConnectionACallThreadHandedBack) {
  auto handler = std::make_shared<EchoHandler>();
  ServerMode mode = Detecting();
  mode.idle_timeout_ms = 300;
  auto server = StartServer(handler, mode);
  Client client(server->port(), Wire{});
  CallUntilACallThreadServes(*server, client);
  const auto start = Clock::now();
  client.socket().setRecvTimeout(5000);
  EXPECT_TRUE(ClosedByServer(client.socket()));
  const auto waited = Clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(250));
  EXPECT_LT(waited, std::chrono::seconds(3));
}

TEST(ThriftServerTest, GarbageOnAConnectionACallThreadServesClosesOnlyIt) {
  auto handler = std::make_shared<EchoHandler>();
  auto server = StartServer(handler, Detecting());
  Client client(server->port(), Wire{});
  Client other(server->port(), Wire{});
  CallUntilACallThreadServes(*server, client);
  WriteRaw(client.socket(), std::string("\x80\x02\x00\x01\x00\x00\x00\x00", 8));  // bad version
  EXPECT_TRUE(ClosedByServer(client.socket()));
  EXPECT_TRUE(WaitUntil([&] { return server->BusyCallThreads() == 0; }));
  ExpectEcho(other.GetRow("t", "still"), "t", "still");
}

TEST(ThriftServerTest, StopClosesAConnectionHeldByACallThreadPromptly) {
  auto handler = std::make_shared<EchoHandler>();
  auto server = StartServer(handler, Detecting());
  Client client(server->port(), Wire{});
  CallUntilACallThreadServes(*server, client);
  const auto stop_started = Clock::now();
  server->Stop();
  EXPECT_LT(Clock::now() - stop_started, std::chrono::seconds(1));
  client.socket().setRecvTimeout(2000);
  EXPECT_TRUE(ClosedByServer(client.socket()));
}

}  // namespace
}  // namespace hbemu::server::thrift_server_testing
