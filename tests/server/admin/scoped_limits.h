#pragma once

#include "server/limits.h"

namespace hbemu::server::admin {

// Sets the limits for one test and puts the defaults back after it.
class ScopedLimits {
 public:
  explicit ScopedLimits(const Limits& limits) { SetLimits(limits); }
  ~ScopedLimits() { SetLimits(Limits()); }
  ScopedLimits(const ScopedLimits&) = delete;
  ScopedLimits& operator=(const ScopedLimits&) = delete;
};

}  // namespace hbemu::server::admin
