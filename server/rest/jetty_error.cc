#include "server/rest/jetty_error.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

namespace hbemu::server::rest {
namespace {

enum class Form { kNone, kHtml, kJson, kText };

std::string Trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

Form FormFor(std::string_view accept) {
  if (Trim(accept).empty()) return Form::kHtml;
  struct Choice {
    std::string type;
    double quality;
  };
  std::vector<Choice> choices;
  size_t start = 0;
  while (start <= accept.size()) {
    size_t comma = accept.find(',', start);
    if (comma == std::string_view::npos) comma = accept.size();
    const std::string_view item = accept.substr(start, comma - start);
    const size_t semi = item.find(';');
    Choice choice{Trim(item.substr(0, semi)), 1.0};
    for (size_t at = semi; at != std::string_view::npos && at < item.size();) {
      const size_t next = item.find(';', at + 1);
      const std::string param = Trim(item.substr(at + 1, next == std::string_view::npos
                                                              ? std::string_view::npos
                                                              : next - at - 1));
      if (param.rfind("q=", 0) == 0) choice.quality = std::atof(param.c_str() + 2);
      at = next;
    }
    if (choice.quality > 0) choices.push_back(std::move(choice));
    start = comma + 1;
  }
  std::stable_sort(choices.begin(), choices.end(),
                   [](const Choice& a, const Choice& b) { return a.quality > b.quality; });
  for (const Choice& choice : choices) {
    if (choice.type == "text/html" || choice.type == "text/*" || choice.type == "*/*") {
      return Form::kHtml;
    }
    if (choice.type == "application/json" || choice.type == "text/json") return Form::kJson;
    if (choice.type == "text/plain") return Form::kText;
  }
  return Form::kNone;
}

std::string HtmlEscaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string JsonEscaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

HttpResponse JettyError(int status, std::string_view message, std::string_view accept,
                        std::string_view path) {
  HttpResponse response;
  response.status = status;
  response.headers.emplace_back("Cache-Control", "must-revalidate,no-cache,no-store");
  const std::string code = std::to_string(status);
  const std::string servlet(kJettyServletName);
  switch (FormFor(accept)) {
    case Form::kNone:
      break;
    case Form::kJson:
      response.content_type = "application/json";
      response.body = "{\n\"servlet\":\"" + JsonEscaped(servlet) + "\",\n\"message\":\"" +
                      JsonEscaped(message) + "\",\n\"url\":\"" + JsonEscaped(path) +
                      "\",\n\"status\":\"" + code + "\"\n}";
      break;
    case Form::kText:
      response.content_type = "text/plain;charset=iso-8859-1";
      response.body = "HTTP ERROR " + code + " " + std::string(message) + "\nURI: " +
                      std::string(path) + "\nSTATUS: " + code + "\nMESSAGE: " +
                      std::string(message) + "\nSERVLET: " + servlet + "\n";
      break;
    case Form::kHtml: {
      const std::string m = HtmlEscaped(message);
      response.content_type = "text/html;charset=iso-8859-1";
      response.body =
          "<html>\n<head>\n<meta http-equiv=\"Content-Type\" "
          "content=\"text/html;charset=ISO-8859-1\"/>\n<title>Error " + code + " " + m +
          "</title>\n</head>\n<body><h2>HTTP ERROR " + code + " " + m +
          "</h2>\n<table>\n<tr><th>URI:</th><td>" + HtmlEscaped(path) +
          "</td></tr>\n<tr><th>STATUS:</th><td>" + code +
          "</td></tr>\n<tr><th>MESSAGE:</th><td>" + m +
          "</td></tr>\n<tr><th>SERVLET:</th><td>" + servlet +
          "</td></tr>\n</table>\n\n</body>\n</html>\n";
      break;
    }
  }
  return response;
}

HttpResponse JettyError(const HttpRequest& request, int status, std::string_view message) {
  const std::string_view target = request.target;
  // Jetty's error handler writes pages for GET, POST and HEAD only; PUT, DELETE and the rest
  // get the status (and its headers) alone.
  HttpResponse response =
      JettyError(status, message, request.Header("Accept"), target.substr(0, target.find('?')));
  const std::string& method = request.method;
  if (method != "GET" && method != "POST" && method != "HEAD") {
    response.content_type.clear();
    response.body.clear();
  }
  return response;
}

HttpResponse RequestFailed(const HttpRequest& request) {
  return JettyError(request, 500, "Request failed.");
}

}  // namespace hbemu::server::rest
