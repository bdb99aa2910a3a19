#include "server/rest/representation.h"

#include <gtest/gtest.h>

namespace hbemu::server::rest {
namespace {

std::string Chosen(std::string_view accept, const std::vector<std::string_view>& produces = ProducesTextFirst()) {
  auto n = NegotiateAccept(accept, produces);
  return n ? n->content_type : "406";
}

// Each expectation is the Content-Type the real gateway answered GET /version with (or, for
// ProducesCells, GET /T/row).
TEST(RepresentationTest, NegotiationMatchesTheGateway) {
  EXPECT_EQ(Chosen(""), "text/plain");
  EXPECT_EQ(Chosen("*/*"), "text/plain");
  EXPECT_EQ(Chosen("*/*", ProducesCells()), "text/xml");
  EXPECT_EQ(Chosen("application/json, text/xml"), "application/json");
  EXPECT_EQ(Chosen("text/xml, application/json"), "text/xml");
  EXPECT_EQ(Chosen("application/*"), "application/json");
  EXPECT_EQ(Chosen("text/*"), "text/plain");
  EXPECT_EQ(Chosen("text/*", ProducesCells()), "text/xml");
  EXPECT_EQ(Chosen("*/*;q=0.1, application/json;q=0.2"), "application/json");
  EXPECT_EQ(Chosen("application/json;q=0"), "application/json");
  EXPECT_EQ(Chosen("text/xml;q=0.5, */*"), "text/plain");
  EXPECT_EQ(Chosen("application/x-protobuf, application/protobuf"), "application/x-protobuf");
  EXPECT_EQ(Chosen("application/protobuf, application/x-protobuf"), "application/protobuf");
  EXPECT_EQ(Chosen("APPLICATION/JSON"), "application/json");
  EXPECT_EQ(Chosen("application/json; charset=utf-8"), "application/json;charset=utf-8");
  EXPECT_EQ(Chosen("application/json;x=1, text/xml"), "application/json;x=1");
  EXPECT_EQ(Chosen("*/*, application/json"), "application/json");
  EXPECT_EQ(Chosen("text/*, application/json"), "application/json");
  EXPECT_EQ(Chosen("application/*, text/xml"), "text/xml");
  EXPECT_EQ(Chosen("text/xml;q=0.9, application/*;q=0.9"), "text/xml");
  EXPECT_EQ(Chosen("foo/bar, text/xml"), "text/xml");
  EXPECT_EQ(Chosen("application/json;q=0.5, text/xml;q=0.5"), "application/json");
  EXPECT_EQ(Chosen("text/html"), "406");
  EXPECT_EQ(Chosen("application/octet-stream"), "406");
  EXPECT_EQ(Chosen("application/x-protobuf", ProducesClusterVersion()), "406");
}

TEST(RepresentationTest, RequestContentTypes) {
  EXPECT_EQ(RepresentationOf("text/xml"), Representation::kXml);
  EXPECT_EQ(RepresentationOf("Application/JSON; charset=UTF-8"), Representation::kJson);
  EXPECT_EQ(RepresentationOf("application/protobuf"), Representation::kProtobuf);
  EXPECT_EQ(RepresentationOf("application/x-protobuf"), Representation::kProtobuf);
  EXPECT_EQ(RepresentationOf("application/octet-stream"), Representation::kOctetStream);
  EXPECT_EQ(RepresentationOf("text/plain"), Representation::kText);
  EXPECT_FALSE(RepresentationOf("text/html").has_value());
}

}  // namespace
}  // namespace hbemu::server::rest
