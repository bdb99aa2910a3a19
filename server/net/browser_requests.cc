#include "server/net/browser_requests.h"

#include <algorithm>
#include <cctype>

#include <boost/asio/ip/address.hpp>

namespace hbemu::server {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool IsIpLiteral(const std::string& host) {
  boost::system::error_code ec;
  boost::asio::ip::make_address(host, ec);
  return !ec;
}

bool IsHostNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool MatchesAllowedName(const std::string& host, const std::string& allowed) {
  if (!allowed.empty() && allowed.front() == '.') {
    return EndsWith(host, allowed) || host == allowed.substr(1);
  }
  return host == allowed;
}

}  // namespace

std::string HostOfAuthority(std::string_view authority) {
  authority = Trim(authority);
  if (auto scheme = authority.find("://"); scheme != std::string_view::npos) {
    authority.remove_prefix(scheme + 3);
  }
  if (auto path = authority.find('/'); path != std::string_view::npos) {
    authority = authority.substr(0, path);
  }
  if (auto at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);
  }
  std::string_view host = authority;
  if (!host.empty() && host.front() == '[') {
    auto close = host.find(']');
    host = close == std::string_view::npos ? host.substr(1) : host.substr(1, close - 1);
  } else if (auto colon = host.find(':'); colon != std::string_view::npos) {
    host = host.substr(0, colon);
  }
  std::string out = Lower(host);
  // "localhost." and "localhost" are the same name to a resolver, and so to a rebinding page.
  while (!out.empty() && out.back() == '.') out.pop_back();
  return out;
}

bool HostHeaderAllowed(std::string_view host_header, const HostAllowList& allow) {
  if (Trim(host_header).empty()) return true;
  const std::string host = HostOfAuthority(host_header);
  if (host.empty()) return false;
  if (IsIpLiteral(host)) return true;
  if (host == "localhost" || EndsWith(host, ".localhost")) return true;
  if (std::all_of(host.begin(), host.end(), IsHostNameChar)) return true;  // single label
  if (!allow.bind_address.empty() && host == HostOfAuthority(allow.bind_address)) return true;
  return std::any_of(allow.names.begin(), allow.names.end(),
                     [&](const std::string& name) { return MatchesAllowedName(host, name); });
}

bool IsFormContentType(std::string_view content_type) {
  std::string_view essence = content_type.substr(0, content_type.find(';'));
  const std::string type = Lower(Trim(essence));
  return type == "text/plain" || type == "application/x-www-form-urlencoded" ||
         type == "multipart/form-data";
}

bool ParseAllowedHosts(std::string_view list, std::vector<std::string>* names,
                       std::string* error) {
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string_view::npos) comma = list.size();
    const std::string name = Lower(Trim(list.substr(start, comma - start)));
    const std::string_view label_part =
        !name.empty() && name.front() == '.' ? std::string_view(name).substr(1) : name;
    const bool well_formed =
        !label_part.empty() && std::all_of(label_part.begin(), label_part.end(), [](char c) {
          return IsHostNameChar(c) || c == '.';
        });
    if (!well_formed) {
      *error = "--allowed-hosts takes host names separated by commas (\".example.com\" for every "
               "name under example.com), not \"" + std::string(list) + "\"";
      return false;
    }
    names->push_back(name);
    start = comma + 1;
  }
  return true;
}

}  // namespace hbemu::server
