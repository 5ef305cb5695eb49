// The product version, from CMake.
#pragma once

namespace lathe::server {
inline constexpr const char* kVersion = LATHE_VERSION;
}  // namespace lathe::server
