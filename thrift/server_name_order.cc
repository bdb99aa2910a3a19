// Orders TServerName for std::set, which the generated code uses for set<TServerName>.
#include <tuple>

#include "THBaseService_types.h"

namespace hbemu::thrift2 {

bool TServerName::operator<(const TServerName& other) const {
  const int32_t p1 = __isset.port ? port : -1, p2 = other.__isset.port ? other.port : -1;
  const int64_t s1 = __isset.startCode ? startCode : -1;
  const int64_t s2 = other.__isset.startCode ? other.startCode : -1;
  return std::tie(hostName, p1, s1) < std::tie(other.hostName, p2, s2);
}

}  // namespace hbemu::thrift2
