#include "server/src/game/log_entry.hpp"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>

namespace galloper::server {

namespace {

namespace pb = google::protobuf;

// The LogEntry case named `kind`, if it is one.
const pb::FieldDescriptor* case_named(std::string_view kind) {
  const auto* field = v1::LogEntry::descriptor()->FindFieldByName(std::string(kind));
  return field != nullptr && field->containing_oneof() != nullptr ? field : nullptr;
}

}  // namespace

std::string_view kind_of(const v1::LogEntry& entry) {
  return kind_name(entry.entry_case());
}

std::string_view kind_name(v1::LogEntry::EntryCase entry_case) {
  const auto* field = v1::LogEntry::descriptor()->FindFieldByNumber(entry_case);
  return field == nullptr ? std::string_view{} : std::string_view(field->name());
}

bool known_log_kind(std::string_view kind) { return case_named(kind) != nullptr; }

std::optional<v1::LogEntry> decode_entry(const persistence::StepRecord& record) {
  const auto* field = case_named(record.kind);
  if (field == nullptr) return std::nullopt;
  v1::LogEntry entry;
  pb::Message* message = entry.GetReflection()->MutableMessage(&entry, field);
  if (!message->ParseFromArray(record.payload.data(), static_cast<int>(record.payload.size()))) return std::nullopt;
  return entry;
}

persistence::StepRecord encode_entry(const v1::LogEntry& entry) {
  persistence::StepRecord record;
  record.kind = std::string(kind_of(entry));
  if (!record.kind.empty()) {
    const auto* field = case_named(record.kind);
    const std::string bytes = entry.GetReflection()->GetMessage(entry, field).SerializeAsString();
    record.payload.assign(bytes.begin(), bytes.end());
  }
  return record;
}

const std::vector<std::string>& rewound_kinds() {
  static const std::vector<std::string> kinds = [] {
    std::vector<std::string> out;
    for (auto number : {v1::LogEntry::kResolve, v1::LogEntry::kAnswer, v1::LogEntry::kLock, v1::LogEntry::kDeadline,
                        v1::LogEntry::kEdit, v1::LogEntry::kReopen}) {
      out.emplace_back(kind_name(number));
    }
    return out;
  }();
  return kinds;
}

}  // namespace galloper::server
