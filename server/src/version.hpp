#pragma once
#include <string_view>

namespace galloper::server {

inline constexpr std::string_view kServerVersion = GALLOPER_VERSION;
inline constexpr unsigned kProtocolMajor = 1;
inline constexpr unsigned kProtocolMinor = 0;

}  // namespace galloper::server
