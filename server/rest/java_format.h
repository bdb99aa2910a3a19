#pragma once

#include <string>

namespace hbemu::server::rest {

// Java's Double.toString: the shortest digits that read back as `d`, plain between 1e-3 and
// 1e7 ("4.0", "0.25"), scientific outside ("1.0E7", "1.5E-4"). HBase's gateway prints the
// cluster's average load this way in JSON and XML.
std::string JavaDouble(double d);

}  // namespace hbemu::server::rest
