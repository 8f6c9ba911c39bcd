#pragma once
// How big an uploaded scenario may be, checked before the rules see it:
// its text in bytes, and its parts (units, leaders, terrain features, each
// point of an outline or path: every message in it) counted once parsed.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace galloper::server {

// Why the scenario is too big for this server, or nullopt. Text that does not
// parse is left to the scenario checks, which say where it is wrong.
std::optional<std::string> scenario_too_big(std::string_view text, std::size_t max_bytes, std::size_t max_parts);

}  // namespace galloper::server
