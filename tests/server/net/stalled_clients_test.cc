#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "server/limits.h"
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

// --- the message timeout: a whole request or reply, whatever trickles ---------------------------

Limits WithMessageTimeout(int64_t ms) {
  Limits limits;
  limits.message_timeout_ms = ms;
  return limits;
}

// Brings `client` onto a call thread (it calls back to back) when the server has them.
void OntoACallThread(ThriftServer& server, Client& client, int call_threads) {
  for (int i = 0; i < 5000 && call_threads > 0 && server.BusyCallThreads() == 0; ++i) {
    client.GetRow("t", "r");
  }
  if (call_threads > 0) ASSERT_EQ(server.BusyCallThreads(), 1u);
}

// Each byte restarts the idle timeout (60 s here), so only the message timeout ends it. On a
// call thread, bytes every 10 ms also keep the thread from handing the connection back.
TEST(StalledClientsTest, RequestTricklingInIsClosedAfterTheMessageTimeout) {
  ScopedLimits limits(WithMessageTimeout(500));
  for (int call_threads : {0, 64}) {
    auto handler = std::make_shared<EchoHandler>();
    ServerMode mode;
    mode.call_threads = call_threads;
    auto server = StartServer(handler, mode);
    Client client(server->port(), Wire{});
    OntoACallThread(*server, client, call_threads);
    const std::string request = SerializedGetRow("t", std::string(1000, 'r'));
    std::atomic<bool> stop{false};
    const auto start = Clock::now();
    std::thread trickle([&] {
      try {
        for (size_t i = 0; i < request.size() && !stop.load(); ++i) {
          WriteRaw(client.socket(), request.substr(i, 1));
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
      } catch (const TTransportException&) {
        // closed under it
      }
    });
    client.socket().setRecvTimeout(8000);
    EXPECT_TRUE(ClosedByServer(client.socket())) << call_threads << " call threads";
    const auto waited = Clock::now() - start;
    stop.store(true);
    trickle.join();
    EXPECT_GE(waited, std::chrono::milliseconds(400)) << call_threads << " call threads";
    EXPECT_LT(waited, std::chrono::seconds(4)) << call_threads << " call threads";
    EXPECT_TRUE(WaitUntil([&] { return OpenConnections(*server) == 0; }));
  }
}

// Between messages a connection is idle, and only the idle timeout applies.
TEST(StalledClientsTest, IdleSpellBetweenCallsIsNotHeldToTheMessageTimeout) {
  ScopedLimits limits(WithMessageTimeout(200));
  auto handler = std::make_shared<EchoHandler>();
  auto server = StartServer(handler, Detecting());
  Client client(server->port(), Wire{});
  ExpectEcho(client.GetRow("t", "before"), "t", "before");
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  ExpectEcho(client.GetRow("t", "after"), "t", "after");
  EXPECT_EQ(OpenConnections(*server), 1);
}

// A client that takes a little of its reply all the time restarts the write timeout forever;
// the reply as a whole must still go out within the message timeout.
TEST(StalledClientsTest, ReplyTakenBySipsIsClosedAfterTheMessageTimeout) {
  ScopedLimits limits(WithMessageTimeout(800));
  for (int call_threads : {0, 64}) {
    auto handler = std::make_shared<EchoHandler>();
    ServerMode mode;
    mode.call_threads = call_threads;
    auto server = StartServer(handler, mode);
    Client client(server->port(), Wire{});
    OntoACallThread(*server, client, call_threads);
    int buffer = 16 << 10;
    setsockopt(client.socket().getSocketFD(), SOL_SOCKET, SO_RCVBUF, &buffer, sizeof(buffer));
    WriteRaw(client.socket(), SerializedGetRow("large", "20000000"));
    std::vector<uint8_t> sip(16 << 10);
    size_t received = 0;
    bool closed = false;
    const auto start = Clock::now();
    while (!closed && received < 20'000'000 && Clock::now() - start < std::chrono::seconds(10)) {
      try {
        const uint32_t n = client.socket().read(sip.data(), static_cast<uint32_t>(sip.size()));
        closed = n == 0;
        received += n;
      } catch (const TTransportException&) {
        closed = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // at most 1.6 MB/s
    }
    EXPECT_TRUE(closed) << call_threads << " call threads, " << received << " bytes taken";
    EXPECT_LT(received, 20'000'000u) << call_threads << " call threads";
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(5)) << call_threads << " call threads";
  }
}

// --- the connection limit ------------------------------------------------------------------------

TEST(StalledClientsTest, ConnectionsPastTheLimitAreClosedAtAcceptAndCounted) {
  Limits limits;
  limits.connections = 3;
  ScopedLimits scoped(limits);
  auto handler = std::make_shared<EchoHandler>();
  auto server = StartServer(handler, Detecting());
  std::vector<std::unique_ptr<Client>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(std::make_unique<Client>(server->port(), Wire{}));
    ExpectEcho(held.back()->GetRow("t", "r"), "t", "r");
  }
  auto refused = NewSocket(server->port());
  refused->setRecvTimeout(5000);
  refused->open();
  EXPECT_TRUE(ClosedByServer(*refused));
  EXPECT_EQ(server->stats().refused.load(), 1u);
  // The ones held are still served, and a place that frees up is taken again.
  ExpectEcho(held.front()->GetRow("t", "still"), "t", "still");
  held.pop_back();
  ASSERT_TRUE(WaitUntil([&] { return OpenConnections(*server) == 2; }));
  Client again(server->port(), Wire{});
  ExpectEcho(again.GetRow("t", "again"), "t", "again");
}

}  // namespace
}  // namespace hbemu::server::thrift_server_testing
