#include "server/src/deadlines.hpp"

#include <date/tz.h>

#include <chrono>
#include <stdexcept>

namespace galloper::server {

namespace {

std::optional<int> two_digits(std::string_view s) {
  if (s.size() != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9') return std::nullopt;
  return (s[0] - '0') * 10 + (s[1] - '0');
}

}  // namespace

std::variant<DailyTime, std::string> parse_daily_time(std::string_view hh_mm, std::string_view zone) {
  const auto colon = hh_mm.find(':');
  const auto h = colon == std::string_view::npos ? std::nullopt : two_digits(hh_mm.substr(0, colon));
  const auto m = colon == std::string_view::npos ? std::nullopt : two_digits(hh_mm.substr(colon + 1));
  if (!h || !m || *h > 23 || *m > 59) {
    return "daily_deadline '" + std::string(hh_mm) + "' is not a time of day as HH:MM (00:00 to 23:59)";
  }
  if (zone.empty()) return std::string("a daily deadline needs a time_zone, e.g. \"Europe/London\"");
  try {
    (void)date::locate_zone(zone);
  } catch (const std::exception&) {
    return "time_zone '" + std::string(zone) + "' is not a known IANA time zone (e.g. \"Europe/Paris\", \"UTC\")";
  }
  return DailyTime{*h * 60 + *m, std::string(zone)};
}

std::int64_t next_daily_deadline(std::int64_t now_ms, const DailyTime& daily, std::int64_t min_lead_ms) {
  using namespace std::chrono;
  const auto* tz = date::locate_zone(daily.zone);
  const date::sys_time<milliseconds> earliest{milliseconds(now_ms + min_lead_ms)};
  // The local day of the earliest acceptable moment, then the days after it.
  const auto local_now = tz->to_local(earliest);
  auto day = date::floor<date::days>(local_now);
  for (int i = 0; i < 3; ++i, day += date::days(1)) {
    const date::local_time<minutes> at = day + minutes(daily.minutes);
    const auto info = tz->get_info(at);
    date::sys_time<milliseconds> when;
    if (info.result == date::local_info::nonexistent) {
      when = info.second.begin;  // the clocks jumped over it: the moment they jump
    } else {
      when = date::sys_time<milliseconds>(tz->to_sys(at, date::choose::earliest));
    }
    if (when >= earliest) return when.time_since_epoch().count();
  }
  // Only a zone that drops whole days (Pacific/Apia dropped 30 December 2011)
  // can get here after three days tried: a day after the earliest moment.
  return (earliest + hours(24)).time_since_epoch().count();
}

}  // namespace galloper::server
