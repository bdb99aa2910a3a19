// A REST door over an in-memory store that answers requests without the network: the fixture
// the REST resource tests share.

#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "server/gateway/rest_counters.h"
#include "server/rest/rest_server.h"
#include "server/rest/rest_service.h"
#include "storage/clock.h"
#include "storage/store.h"
#include "tests/test_util.h"

namespace hbemu::server::rest {

using Headers = std::vector<std::pair<std::string, std::string>>;

inline const std::pair<std::string, std::string> kJsonBody{"Content-Type", "application/json"};
inline const std::pair<std::string, std::string> kXmlBody{"Content-Type", "text/xml"};
inline const std::pair<std::string, std::string> kOctetBody{"Content-Type",
                                                            "application/octet-stream"};
inline const std::pair<std::string, std::string> kAcceptJson{"Accept", "application/json"};
inline const std::pair<std::string, std::string> kAcceptProtobuf{"Accept",
                                                                 "application/x-protobuf"};
inline const std::pair<std::string, std::string> kAcceptOctet{"Accept",
                                                               "application/octet-stream"};

class RestDoorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(testutil::OpenInMemoryStore(&clock_, &store_));
    RestServiceOptions options;
    options.server_name = "node";
    options.emulator_version = "test";
    service_ = std::make_unique<RestService>(store_.get(), options);
    counters_ = MakeRestCounters();
    door_ = std::make_unique<RestServer>("127.0.0.1", 0, service_.get(), counters_.get(),
                                         std::vector<std::string>{});
  }

  // A request from this machine, as a client on loopback sends it (Host localhost:8080).
  HttpResponse Call(const std::string& method, const std::string& target, Headers headers = {},
                    std::string body = "") {
    HttpRequest request;
    request.method = method;
    request.target = target;
    request.headers = std::move(headers);
    request.headers.emplace_back("Host", "localhost:8080");
    request.body = std::move(body);
    request.loopback_peer = true;
    request.peer = "127.0.0.1:5555";
    return door_->Handle(request);
  }

  static std::string HeaderOf(const HttpResponse& response, const std::string& name) {
    for (const auto& [key, value] : response.headers) {
      if (key == name) return value;
    }
    return "";
  }

  static bool StartsWith(const std::string& text, const std::string& prefix) {
    return text.rfind(prefix, 0) == 0;
  }

  storage::ManualClock clock_{1000};
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<RestService> service_;
  std::unique_ptr<RestCounters> counters_;
  std::unique_ptr<RestServer> door_;
};

}  // namespace hbemu::server::rest
