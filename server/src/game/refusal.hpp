#pragma once
// A request a room will not carry out, as the typed error its sender gets.
#include <string>
#include <utility>
#include <vector>

#include "galloper/v1/protocol.pb.h"

namespace galloper::server {

struct Refusal {
  v1::ErrorCode code = v1::ERROR_CODE_INVALID_ARGUMENT;
  std::string message;
  std::vector<std::pair<std::string, std::string>> context;
};

}  // namespace galloper::server
