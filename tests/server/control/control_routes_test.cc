#include "server/control/control_routes.h"

#include <gtest/gtest.h>

namespace hbemu::server::control {
namespace {

using nlohmann::json;

ControlRoutes Routes() {
  ControlRoutes routes;
  routes.Add("GET", "/control/thing", [](const ControlRequest& r) {
    return json{{"n", r.Int("n", 7)}};
  });
  routes.Add("POST", "/control/thing", [](const ControlRequest& r) {
    if (!r.Has("name")) throw ControlError{400, "name is required"};
    return json{{"name", r.String("name")}};
  });
  routes.Add("GET", "/control/under/*", [](const ControlRequest& r) {
    return json{{"path", r.path}};
  });
  return routes;
}

json Body(const admin::HttpReply& reply) { return json::parse(reply.body); }

TEST(ControlRoutesTest, CallersNotOnThisMachineAreRefusedUnlessRemoteIsAllowed) {
  const ControlRoutes routes = Routes();
  EXPECT_EQ(routes.Handle("GET", "/control/thing", "", false, false).status, 403);
  EXPECT_EQ(routes.Handle("GET", "/control/thing", "", false, true).status, 200);
  EXPECT_EQ(routes.Handle("GET", "/control/thing", "", true, false).status, 200);
}

TEST(ControlRoutesTest, GetReadsAndPostChangesWithJsonBodies) {
  const ControlRoutes routes = Routes();
  EXPECT_EQ(Body(routes.Handle("GET", "/control/thing?n=3", "", true, false))["n"], 3);
  const admin::HttpReply posted =
      routes.Handle("POST", "/control/thing", R"({"name": "x"})", true, false);
  EXPECT_EQ(posted.status, 200);
  EXPECT_EQ(posted.content_type, "application/json");
  EXPECT_EQ(Body(posted)["name"], "x");
}

TEST(ControlRoutesTest, BadRequestsGetJsonErrorsWithTheirStatus) {
  const ControlRoutes routes = Routes();
  EXPECT_EQ(routes.Handle("POST", "/control/thing", "{}", true, false).status, 400);
  EXPECT_EQ(routes.Handle("POST", "/control/thing", "not json", true, false).status, 400);
  EXPECT_EQ(routes.Handle("POST", "/control/thing", R"({"name": 5})", true, false).status, 400);
  EXPECT_EQ(routes.Handle("GET", "/control/thing?n=x", "", true, false).status, 400);
  EXPECT_EQ(routes.Handle("POST", "/control/under/a", "", true, false).status, 405);
  EXPECT_EQ(routes.Handle("DELETE", "/control/thing", "", true, false).status, 405);
  const admin::HttpReply missing = routes.Handle("GET", "/control/nothing", "", true, false);
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(Body(missing)["status"], 404);
}

// A time near 2^63 read through a double came back as another time (2^53 + 1 became 2^53).
TEST(ControlRoutesTest, WholeNumbersAreReadExactlyAndBounded) {
  const ControlRoutes routes = Routes();
  auto n = [&](const std::string& target, const std::string& body) {
    return routes.Handle("GET", target, body, true, false);
  };
  EXPECT_EQ(Body(n("/control/thing", R"({"n": 9007199254740993})"))["n"], 9007199254740993LL);
  EXPECT_EQ(Body(n("/control/thing?n=9223372036854775805", ""))["n"], 9223372036854775805LL);
  EXPECT_EQ(Body(n("/control/thing", R"({"n": -9223372036854775807})"))["n"],
            -9223372036854775807LL);
  EXPECT_EQ(Body(n("/control/thing", R"({"n": 2e3})"))["n"], 2000);
  EXPECT_EQ(n("/control/thing", R"({"n": 9223372036854775808})").status, 400);
  EXPECT_EQ(n("/control/thing?n=9223372036854775808", "").status, 400);
  EXPECT_EQ(n("/control/thing", R"({"n": 1e300})").status, 400);
  EXPECT_EQ(n("/control/thing", R"({"n": 1.5})").status, 400);
}

TEST(ControlRoutesTest, PrefixRoutesTakeEveryPathBelowThem) {
  const ControlRoutes routes = Routes();
  EXPECT_EQ(Body(routes.Handle("GET", "/control/under/a/b", "", true, false))["path"],
            "/control/under/a/b");
  EXPECT_EQ(routes.Handle("GET", "/control/underneath", "", true, false).status, 404);
}

TEST(ControlRoutesTest, TheRootListsEveryRoute) {
  const ControlRoutes routes = Routes();
  const json listed = Body(routes.Handle("GET", "/control/", "", true, false));
  EXPECT_EQ(listed["routes"],
            json::array({"GET /control/thing", "POST /control/thing", "GET /control/under/*"}));
}

}  // namespace
}  // namespace hbemu::server::control
