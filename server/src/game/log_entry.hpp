#pragma once
// A game's log as the room reads and writes it: one v1::LogEntry per entry.
//
// The store keeps each entry as its kind (the name of the LogEntry case that
// is set: "answer", "lock", "resolve", ...) and the case's message as the
// payload, the layout logs had before LogEntry existed, so old logs read back
// unchanged. The kinds are LogEntry's field names and are spelled nowhere
// else: this file maps between the two forms.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "galloper/v1/store.pb.h"
#include "persistence/store.hpp"

namespace galloper::server {

// The kind stored for an entry (the set case's field name); "" when none is set.
std::string_view kind_of(const v1::LogEntry& entry);

// The kind stored for entries of one case.
std::string_view kind_name(v1::LogEntry::EntryCase entry_case);

// Whether this build writes entries of `kind`.
bool known_log_kind(std::string_view kind);

// The entry a stored record holds; nullopt when its kind is unknown or its
// payload does not decode as that kind's message.
std::optional<v1::LogEntry> decode_entry(const persistence::StepRecord& record);

// The stored form of an entry (kind and payload set; the caller sets the rest).
persistence::StepRecord encode_entry(const v1::LogEntry& entry);

// The kinds an umpire rewind supersedes: what belongs to a step, and the
// umpire's edits of the state after the point returned to (the state goes
// back as it was then; the audit trail still lists them, marked undone).
// Chat, standing orders, notifications and other umpire actions stay.
const std::vector<std::string>& rewound_kinds();

}  // namespace galloper::server
