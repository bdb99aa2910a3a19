#include "server/gateway/attributes.h"

namespace hbemu::server {

int64_t CellTtlFromAttributes(const std::map<std::string, std::string>& attributes) {
  auto it = attributes.find("_ttl");
  if (it == attributes.end() || it->second.size() != 8) return 0;
  uint64_t v = 0;
  for (unsigned char c : it->second) v = (v << 8) | c;
  const int64_t ttl = static_cast<int64_t>(v);
  return ttl > 0 ? ttl : 0;
}

}  // namespace hbemu::server
