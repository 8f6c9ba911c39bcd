#pragma once
#include <string_view>

namespace galloper::server {

inline constexpr std::string_view kServerVersion = GALLOPER_VERSION;
inline constexpr unsigned kProtocolMajor = 1;
// Minor 1: a StepResolved's view may come as a change to the last one
// (ViewChange); connections that said minor 0 in their Hello get it whole.
inline constexpr unsigned kProtocolMinor = 1;

}  // namespace galloper::server
