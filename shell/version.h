#pragma once

namespace hbemu::shell {

inline constexpr const char* kShellVersion = "0.1.0";

}  // namespace hbemu::shell
