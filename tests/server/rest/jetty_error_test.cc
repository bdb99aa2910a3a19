#include "server/rest/jetty_error.h"

#include <gtest/gtest.h>

namespace hbemu::server::rest {
namespace {

std::string TypeFor(const std::string& accept) {
  return JettyError(500, "Request failed.", accept, "/t/*").content_type;
}

TEST(RestJettyErrorTest, TheFirstAcceptedOfHtmlJsonAndTextByQualityChoosesTheForm) {
  EXPECT_EQ(TypeFor(""), "text/html;charset=iso-8859-1");
  EXPECT_EQ(TypeFor("*/*"), "text/html;charset=iso-8859-1");
  EXPECT_EQ(TypeFor("text/*"), "text/html;charset=iso-8859-1");
  EXPECT_EQ(TypeFor("application/json, text/plain"), "application/json");
  EXPECT_EQ(TypeFor("text/xml, application/json;q=0.5"), "application/json");
  EXPECT_EQ(TypeFor("application/json;q=0.2, text/plain"), "text/plain;charset=iso-8859-1");
  EXPECT_EQ(TypeFor("text/xml"), "");
  EXPECT_EQ(TypeFor("application/x-protobuf"), "");
}

TEST(RestJettyErrorTest, PagesNameTheStatusMessagePathAndServletAsJettyWritesThem) {
  const std::string servlet(kJettyServletName);
  EXPECT_EQ(JettyError(406, "Not Acceptable", "text/plain", "/t/a%20b*").body,
            "HTTP ERROR 406 Not Acceptable\nURI: /t/a%20b*\nSTATUS: 406\nMESSAGE: Not "
            "Acceptable\nSERVLET: " + servlet + "\n");
  HttpResponse html = JettyError(500, "Request failed.", "", "/t/<x>*");
  EXPECT_NE(html.body.find("<tr><th>URI:</th><td>/t/&lt;x&gt;*</td></tr>"), std::string::npos);
  EXPECT_EQ(html.body.rfind("<html>\n<head>\n", 0), 0u);
  HttpResponse none = JettyError(500, "Request failed.", "text/xml", "/t/*");
  EXPECT_EQ(none.body, "");
  EXPECT_EQ(none.status, 500);
}

TEST(RestJettyErrorTest, OnlyGetPostAndHeadGetAPage) {
  for (const char* method : {"GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS"}) {
    HttpRequest request;
    request.method = method;
    request.target = "/t/a*b?x=1";
    request.headers.emplace_back("Accept", "application/json");
    HttpResponse response = JettyError(request, 404, "Not Found");
    const bool paged = std::string(method) == "GET" || std::string(method) == "POST" ||
                       std::string(method) == "HEAD";
    EXPECT_EQ(response.status, 404) << method;
    EXPECT_EQ(response.content_type, paged ? "application/json" : "") << method;
    EXPECT_EQ(response.body.empty(), !paged) << method;
  }
}

}  // namespace
}  // namespace hbemu::server::rest
