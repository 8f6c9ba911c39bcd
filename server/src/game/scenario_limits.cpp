#include "server/src/game/scenario_limits.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/text_format.h>

#include <vector>

#include "galloper/v1/scenario.pb.h"

namespace galloper::server {

namespace {

// Messages in `m`, itself included; stops counting past `limit`.
std::size_t parts(const google::protobuf::Message& m, std::size_t limit) {
  std::size_t n = 1;
  const auto* reflection = m.GetReflection();
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  reflection->ListFields(m, &fields);
  for (const auto* f : fields) {
    if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (!f->is_repeated()) {
      n += parts(reflection->GetMessage(m, f), limit);
    } else {
      for (int i = 0; i < reflection->FieldSize(m, f) && n <= limit; ++i) {
        n += parts(reflection->GetRepeatedMessage(m, f, i), limit);
      }
    }
    if (n > limit) break;
  }
  return n;
}

}  // namespace

std::optional<std::string> scenario_too_big(std::string_view text, std::size_t max_bytes, std::size_t max_parts) {
  if (text.size() > max_bytes) {
    return "the scenario is " + std::to_string(text.size()) + " bytes; this server takes up to " +
           std::to_string(max_bytes) + " (--max-scenario-bytes)";
  }
  v1::scenario::Scenario scenario;
  google::protobuf::TextFormat::Parser parser;
  parser.AllowPartialMessage(true);
  if (!parser.ParseFromString(std::string(text), &scenario)) return std::nullopt;
  if (parts(scenario, max_parts) > max_parts) {
    return "the scenario has more than " + std::to_string(max_parts) +
           " parts (units, leaders, terrain features and their points); this server takes up to " +
           std::to_string(max_parts) + " (--max-scenario-parts)";
  }
  return std::nullopt;
}

}  // namespace galloper::server
