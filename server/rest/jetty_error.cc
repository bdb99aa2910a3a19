#include "server/rest/jetty_error.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace hbemu::server::rest {
namespace {

// The servlet name Jetty reports: Jersey's container, as HBase deploys it.
constexpr char kServlet[] =
    "org.apache.hbase.thirdparty.org.glassfish.jersey.servlet.ServletContainer-4628b1d3";

enum class Form { kHtml, kJson, kText, kNone };

std::string Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), ::tolower);
  return out;
}

Form FormFor(const std::string& accept) {
  if (Trim(accept).empty()) return Form::kHtml;
  size_t begin = 0;
  while (begin <= accept.size()) {
    size_t end = accept.find(',', begin);
    if (end == std::string::npos) end = accept.size();
    std::string_view item(accept.data() + begin, end - begin);
    const std::string type = Trim(item.substr(0, item.find(';')));
    if (type == "text/html" || type == "*/*" || type == "text/*") return Form::kHtml;
    if (type == "application/json" || type == "text/json") return Form::kJson;
    if (type == "text/plain") return Form::kText;
    begin = end + 1;
  }
  return Form::kNone;
}

}  // namespace

HttpResponse JettyError(const HttpRequest& request, int status, const std::string& message) {
  const std::string url(std::string_view(request.target).substr(0, request.target.find('?')));
  const std::string code = std::to_string(status);
  HttpResponse response;
  response.status = status;
  switch (FormFor(request.Header("Accept"))) {
    case Form::kJson:
      response.content_type = "application/json";
      response.body = "{\n\"servlet\":\"" + std::string(kServlet) + "\",\n\"message\":\"" + message +
                      "\",\n\"url\":\"" + url + "\",\n\"status\":\"" + code + "\"\n}";
      break;
    case Form::kText:
      response.content_type = "text/plain;charset=iso-8859-1";
      response.body = "HTTP ERROR " + code + " " + message + "\nURI: " + url + "\nSTATUS: " +
                      code + "\nMESSAGE: " + message + "\nSERVLET: " + kServlet + "\n";
      break;
    case Form::kHtml:
      response.content_type = "text/html;charset=iso-8859-1";
      response.body =
          "<html>\n<head>\n<meta http-equiv=\"Content-Type\" "
          "content=\"text/html;charset=ISO-8859-1\"/>\n<title>Error " + code + " " + message +
          "</title>\n</head>\n<body><h2>HTTP ERROR " + code + " " + message +
          "</h2>\n<table>\n<tr><th>URI:</th><td>" + url + "</td></tr>\n<tr><th>STATUS:</th><td>" +
          code + "</td></tr>\n<tr><th>MESSAGE:</th><td>" + message +
          "</td></tr>\n<tr><th>SERVLET:</th><td>" + kServlet + "</td></tr>\n</table>\n\n</body>\n"
          "</html>\n";
      break;
    case Form::kNone:
      break;
  }
  return response;
}

}  // namespace hbemu::server::rest
