#pragma once
// Deadlines of play-by-web: a duration from when a step opens, or a fixed time
// of day in a time zone ("every evening at 20:00, Europe/Paris").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace galloper::server {

// A time of day in a named IANA time zone.
struct DailyTime {
  int minutes = 0;        // after local midnight, 0 .. 1439
  std::string zone;       // e.g. "Europe/London"
};

// "HH:MM" (24-hour clock) and a zone name; on failure a reason a person can
// act on ("time_zone 'Europe/Lndon' is not a known IANA time zone").
std::variant<DailyTime, std::string> parse_daily_time(std::string_view hh_mm, std::string_view zone);

// The first moment at `daily` local time that is at least `min_lead_ms` after
// `now_ms` (Unix milliseconds). A local time skipped by a clock change (the
// spring-forward gap) is taken as the moment the clocks jump; one that
// happens twice (autumn) as its first occurrence.
std::int64_t next_daily_deadline(std::int64_t now_ms, const DailyTime& daily, std::int64_t min_lead_ms);

}  // namespace galloper::server
