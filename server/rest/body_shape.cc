#include "server/rest/body_shape.h"

#include <algorithm>
#include <string>

#include "server/limits.h"

namespace hbemu::server::rest {

namespace {

std::string Past(const char* what, int64_t bound, const char* limit) {
  return std::string("body ") + what + " (" + (limit != nullptr ? "limit " + std::string(limit)
                                                                : "bound " + std::to_string(bound)) +
         ")";
}

}  // namespace

BodyBounds CurrentBodyBounds() {
  BodyBounds bounds;
  bounds.max_elements = std::max<int64_t>(1024, CurrentLimits().decoded_bytes / 64);
  bounds.elements_limit = "decoded_bytes";
  return bounds;
}

BodyStatus CheckJsonShape(std::string_view body, const BodyBounds& bounds) {
  int64_t depth = 0, elements = 0;
  bool in_string = false;
  for (size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        ++elements;
        break;
      case '{':
      case '[':
        if (++depth > bounds.max_depth) {
          return BodyStatus::ServerError(Past("nests deeper than its bound", bounds.max_depth, bounds.depth_limit));
        }
        ++elements;
        break;
      case '}':
      case ']':
        --depth;
        break;
      case ',':
        ++elements;
        break;
      default:
        continue;
    }
    if (elements > bounds.max_elements) {
      return BodyStatus::ServerError(Past("holds more values than its bound", bounds.max_elements, bounds.elements_limit));
    }
  }
  return BodyStatus::Ok();
}

BodyStatus CheckXmlShape(std::string_view body, const BodyBounds& bounds) {
  int64_t depth = 0, elements = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '<') continue;
    const std::string_view rest = body.substr(i + 1);
    if (rest.substr(0, 3) == "!--") {
      const size_t end = body.find("-->", i + 4);
      if (end == std::string_view::npos) return BodyStatus::BadRequest("unterminated XML comment");
      i = end + 2;
      continue;
    }
    if (rest.substr(0, 8) == "![CDATA[") {
      const size_t end = body.find("]]>", i + 9);
      if (end == std::string_view::npos) return BodyStatus::BadRequest("unterminated CDATA section");
      i = end + 2;
      continue;
    }
    if (!rest.empty() && rest[0] == '!') {
      return BodyStatus::BadRequest("DOCTYPE and other declarations are not allowed in a body");
    }
    if (!rest.empty() && rest[0] == '?') continue;  // the XML declaration
    if (!rest.empty() && rest[0] == '/') {
      --depth;
      continue;
    }
    // An opening tag, read to its '>' outside quoted attribute values (which may hold '>');
    // the scan resumes after it, so the pass stays linear. A self-closing one ("<a/>") does
    // not stay open; an unterminated one is left for the parser to report.
    char quote = 0;
    size_t close = i + 1;
    for (; close < body.size(); ++close) {
      const char c = body[close];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '=') {
        if (++elements > bounds.max_elements) {
          return BodyStatus::BadRequest(Past("holds more elements than its bound", bounds.max_elements, bounds.elements_limit));
        }
      } else if (c == '>') {
        break;
      }
    }
    const bool self_closing = close < body.size() && body[close - 1] == '/';
    if (++elements > bounds.max_elements) {
      return BodyStatus::BadRequest(Past("holds more elements than its bound", bounds.max_elements, bounds.elements_limit));
    }
    if (!self_closing && ++depth > bounds.max_depth) {
      return BodyStatus::BadRequest(Past("nests deeper than its bound", bounds.max_depth, bounds.depth_limit));
    }
    i = close;
  }
  return BodyStatus::Ok();
}

}  // namespace hbemu::server::rest
