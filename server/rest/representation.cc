#include "server/rest/representation.h"

#include <algorithm>
#include <cstdlib>

namespace hbemu::server::rest {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

struct AcceptEntry {
  std::string type;     // lower case, "*" for a wildcard
  std::string subtype;  // lower case, "*" for a wildcard
  std::string params;   // ";k=v" pairs other than q, as the client wrote them (trimmed)
  double q = 1.0;
  size_t index = 0;
  int Specificity() const { return type == "*" ? 0 : (subtype == "*" ? 1 : 2); }
};

std::vector<AcceptEntry> ParseAccept(std::string_view header) {
  std::vector<AcceptEntry> entries;
  size_t index = 0;
  while (true) {
    const size_t comma = header.find(',');
    std::string_view item = Trim(header.substr(0, comma));
    if (!item.empty()) {
      AcceptEntry e;
      e.index = index++;
      const size_t semi = item.find(';');
      std::string_view range = Trim(item.substr(0, semi));
      const size_t slash = range.find('/');
      e.type = Lower(Trim(range.substr(0, slash)));
      e.subtype = slash == std::string_view::npos ? "*" : Lower(Trim(range.substr(slash + 1)));
      std::string_view params = semi == std::string_view::npos ? std::string_view() : item.substr(semi + 1);
      while (!params.empty()) {
        const size_t next = params.find(';');
        std::string_view param = Trim(params.substr(0, next));
        const size_t eq = param.find('=');
        if (eq != std::string_view::npos && Lower(Trim(param.substr(0, eq))) == "q") {
          e.q = std::strtod(std::string(Trim(param.substr(eq + 1))).c_str(), nullptr);
        } else if (!param.empty()) {
          e.params += ";";
          e.params += std::string(param);
        }
        if (next == std::string_view::npos) break;
        params.remove_prefix(next + 1);
      }
      if (!e.type.empty()) entries.push_back(std::move(e));
    }
    if (comma == std::string_view::npos) break;
    header.remove_prefix(comma + 1);
  }
  return entries;
}

}  // namespace

std::optional<Representation> RepresentationOf(std::string_view media_type) {
  const std::string type = Lower(Trim(media_type.substr(0, media_type.find(';'))));
  if (type == kTextPlain) return Representation::kText;
  if (type == kTextXml) return Representation::kXml;
  if (type == kJson) return Representation::kJson;
  if (type == kProtobuf || type == kProtobufAlias) return Representation::kProtobuf;
  if (type == kOctetStream) return Representation::kOctetStream;
  return std::nullopt;
}

std::optional<Negotiated> NegotiateAccept(std::string_view accept,
                                          const std::vector<std::string_view>& produces) {
  std::vector<AcceptEntry> entries = ParseAccept(accept);
  if (entries.empty()) entries.push_back(AcceptEntry{"*", "*", "", 1.0, 0});
  std::stable_sort(entries.begin(), entries.end(), [](const AcceptEntry& a, const AcceptEntry& b) {
    if (a.q != b.q) return a.q > b.q;
    return a.Specificity() > b.Specificity();
  });
  for (const AcceptEntry& e : entries) {
    for (std::string_view produced : produces) {
      const size_t slash = produced.find('/');
      const std::string_view type = produced.substr(0, slash), subtype = produced.substr(slash + 1);
      if (e.type != "*" && e.type != type) continue;
      if (e.subtype != "*" && e.subtype != subtype) continue;
      Negotiated n{*RepresentationOf(produced), std::string(produced)};
      if (e.Specificity() == 2) n.content_type += e.params;
      return n;
    }
  }
  return std::nullopt;
}

}  // namespace hbemu::server::rest
