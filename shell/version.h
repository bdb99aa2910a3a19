#pragma once

#include "build_info.h"

namespace hbemu::shell {

inline constexpr const char* kShellVersion = kProjectVersion;

}  // namespace hbemu::shell
