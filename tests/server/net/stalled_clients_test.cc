#include <sys/socket.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "storage/limits.h"
#include "tests/server/net/thrift_server_testing.h"
#include "tests/test_util.h"

// Clients that hold the server: ones that stop reading their replies, and slow calls.
namespace hbemu::server::thrift_server_testing {
namespace {

using testutil::WaitUntil;

// Limits for the servers a test starts (they read them when made), restored afterwards.
class ScopedLimits {
 public:
  explicit ScopedLimits(const Limits& limits) : saved_(CurrentLimits()) { SetLimits(limits); }
  ~ScopedLimits() { SetLimits(saved_); }

 private:
  const Limits saved_;
};

Limits WithWriteTimeout(int64_t ms) {
  Limits limits;
  limits.write_timeout_ms = ms;
  return limits;
}

int OpenConnections(const ThriftServer& server) {
  const std::vector<int> per_loop = server.ConnectionsPerLoop();
  return std::accumulate(per_loop.begin(), per_loop.end(), 0);
}

// Sends `calls` getRow calls for 1 MB replies and never reads: far more than the socket buffers
// of both ends hold, so the server's send blocks.
void FloodWithoutReading(TSocket& socket, int calls) {
  int buffer = 64 << 10;
  setsockopt(socket.getSocketFD(), SOL_SOCKET, SO_RCVBUF, &buffer, sizeof(buffer));
  std::string requests;
  for (int i = 0; i < calls; ++i) requests += SerializedGetRow("large", "1000000");
  WriteRaw(socket, requests);
}

TEST(StalledClientsTest, ClientThatStopsReadingIsClosedAfterTheWriteTimeout) {
  ScopedLimits limits(WithWriteTimeout(300));
  auto handler = std::make_shared<EchoHandler>();
  ServerMode mode;
  mode.event_loops = 1;
  mode.call_threads = 0;  // the event loop writes the replies
  auto server = StartServer(handler, mode);
  auto socket = NewSocket(server->port());
  socket->open();
  FloodWithoutReading(*socket, 40);
  Client bystander(server->port(), Wire{});
  ExpectEcho(bystander.GetRow("t", "r"), "t", "r");
  EXPECT_TRUE(WaitUntil([&] { return OpenConnections(*server) == 1; }));
  ExpectEcho(bystander.GetRow("t", "again"), "t", "again");
}

TEST(StalledClientsTest, ClientThatStopsReadingOnACallThreadIsClosedAndFreesTheThread) {
  ScopedLimits limits(WithWriteTimeout(300));
  auto handler = std::make_shared<EchoHandler>();
  auto server = StartServer(handler, Detecting());
  Client client(server->port(), Wire{});
  for (int i = 0; i < 5000 && server->BusyCallThreads() == 0; ++i) client.GetRow("t", "r");
  ASSERT_EQ(server->stats().on_call_threads.load(), 1);
  FloodWithoutReading(client.socket(), 40);
  EXPECT_TRUE(WaitUntil([&] { return OpenConnections(*server) == 0; }));
  EXPECT_TRUE(WaitUntil([&] { return server->stats().on_call_threads.load() == 0; }));
  Client bystander(server->port(), Wire{});
  ExpectEcho(bystander.GetRow("t", "r"), "t", "r");
}

// A client that takes nothing of its reply is idle, whichever timeout is shorter.
TEST(StalledClientsTest, ClientThatStopsReadingCountsAsIdle) {
  ScopedLimits limits(WithWriteTimeout(60000));
  for (int call_threads : {0, 64}) {
    auto handler = std::make_shared<EchoHandler>();
    ServerMode mode;
    mode.idle_timeout_ms = 300;
    mode.call_threads = call_threads;
    auto server = StartServer(handler, mode);
    Client client(server->port(), Wire{});
    for (int i = 0; i < 5000 && call_threads > 0 && server->BusyCallThreads() == 0; ++i) {
      client.GetRow("t", "r");
    }
    FloodWithoutReading(client.socket(), 40);
    EXPECT_TRUE(WaitUntil([&] { return OpenConnections(*server) == 0; }))
        << call_threads << " call threads";
  }
}

TEST(StalledClientsTest, SlowReaderThatKeepsTakingItsRepliesIsNotClosed) {
  ScopedLimits limits(WithWriteTimeout(1000));
  auto handler = std::make_shared<EchoHandler>();
  auto server = StartServer(handler, Detecting());
  Client client(server->port(), Wire{});
  std::string requests;
  for (int i = 0; i < 10; ++i) requests += SerializedGetRow("large", "1000000");
  WriteRaw(client.socket(), requests);
  // The replies trickle out over longer than the write timeout, but the client takes some of
  // them all the time (every 40 ms: far inside the timeout even on a loaded machine).
  std::vector<uint8_t> chunk(256 << 10);
  size_t received = 0;
  const auto start = Clock::now();
  while (received < 10'000'000) {
    const uint32_t n = client.socket().read(chunk.data(), static_cast<uint32_t>(chunk.size()));
    ASSERT_GT(n, 0u) << "closed after " << received << " bytes";
    received += n;
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
  }
  EXPECT_GT(Clock::now() - start, std::chrono::milliseconds(1000));
  EXPECT_EQ(OpenConnections(*server), 1);
}

// Two long calls on a one-loop server: the loop's thread runs one and the thread that joined it
// the other, and the next thread to join serves everybody else.
TEST(StalledClientsTest, TwoSlowCallsDoNotStallTheLoopsOtherClients) {
  auto handler = std::make_shared<EchoHandler>();
  ServerMode mode;
  mode.event_loops = 1;
  auto server = StartServer(handler, mode);
  Client first(server->port(), Wire{});
  Client second(server->port(), Wire{});
  std::thread slow_one([&] { first.GetRow("slow", "4000"); });
  ASSERT_TRUE(WaitUntil([&] { return handler->slow_started.load() == 1; }));
  std::thread slow_two([&] { second.GetRow("slow", "4000"); });
  ASSERT_TRUE(WaitUntil([&] { return handler->slow_started.load() == 2; }));
  // A new connection too: accepting runs on the loop as well.
  Client bystander(server->port(), Wire{});
  for (int i = 0; i < 5; ++i) {
    ExpectEcho(bystander.GetRow("t", std::to_string(i)), "t", std::to_string(i));
  }
  EXPECT_EQ(handler->slow_finished.load(), 0);
  slow_one.join();
  slow_two.join();
}

}  // namespace
}  // namespace hbemu::server::thrift_server_testing
