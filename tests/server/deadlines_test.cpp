// Daily deadlines in a time zone (game rooms issue, play-by-web): parsing,
// the next deadline, the minimum lead, and the days the clocks change.
#include "server/src/deadlines.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace galloper::server {
namespace {

using namespace std::chrono;

// Unix milliseconds of a UTC civil time (the calendar, no time zone).
std::int64_t utc(int y, unsigned mo, unsigned d, int h, int mi) {
  const sys_days date{year{y} / month{mo} / std::chrono::day{d}};
  return duration_cast<milliseconds>((date + hours(h) + minutes(mi)).time_since_epoch()).count();
}

DailyTime daily(std::string_view hh_mm, std::string_view zone) {
  auto parsed = parse_daily_time(hh_mm, zone);
  EXPECT_TRUE(std::holds_alternative<DailyTime>(parsed)) << std::get<std::string>(parsed);
  return std::get<DailyTime>(parsed);
}

std::string why(std::string_view hh_mm, std::string_view zone) {
  auto parsed = parse_daily_time(hh_mm, zone);
  return std::holds_alternative<std::string>(parsed) ? std::get<std::string>(parsed) : "accepted";
}

constexpr std::int64_t kHour = 3600 * 1000;

TEST(DailyDeadline, ParsesHoursMinutesAndAKnownZone) {
  const auto d = daily("20:05", "Europe/London");
  EXPECT_EQ(d.minutes, 20 * 60 + 5);
  EXPECT_EQ(d.zone, "Europe/London");
  EXPECT_EQ(daily("00:00", "UTC").minutes, 0);
  EXPECT_EQ(daily("23:59", "America/New_York").minutes, 23 * 60 + 59);
}

TEST(DailyDeadline, RefusesWhatIsNotATimeOrAZoneAndSaysWhy) {
  for (const char* bad : {"2000", "24:00", "12:60", "7:05", "07:5", "", "ab:cd", "-1:00"}) {
    EXPECT_NE(why(bad, "UTC").find("HH:MM"), std::string::npos) << bad;
  }
  EXPECT_NE(why("20:00", "Europe/Lndon").find("not a known IANA time zone"), std::string::npos);
  EXPECT_NE(why("20:00", "").find("needs a time_zone"), std::string::npos);
}

TEST(DailyDeadline, TheNextOccurrenceTodayOrTomorrow) {
  const auto london = daily("20:00", "Europe/London");
  // November: London is on GMT.
  EXPECT_EQ(next_daily_deadline(utc(2026, 11, 21, 10, 0), london, 0), utc(2026, 11, 21, 20, 0));
  EXPECT_EQ(next_daily_deadline(utc(2026, 11, 21, 20, 0), london, 0), utc(2026, 11, 21, 20, 0));
  EXPECT_EQ(next_daily_deadline(utc(2026, 11, 21, 20, 1), london, 0), utc(2026, 11, 22, 20, 0));
  // July: British Summer Time, 20:00 local is 19:00 UTC.
  EXPECT_EQ(next_daily_deadline(utc(2026, 7, 1, 12, 0), london, 0), utc(2026, 7, 1, 19, 0));
  // New York in winter is UTC-5: 20:00 there is 01:00 UTC the next day.
  EXPECT_EQ(next_daily_deadline(utc(2026, 1, 10, 12, 0), daily("20:00", "America/New_York"), 0),
            utc(2026, 1, 11, 1, 0));
}

TEST(DailyDeadline, AStepGetsAtLeastTheMinimumLead) {
  const auto london = daily("20:00", "Europe/London");
  // Opened at 19:30 with an hour's minimum: tomorrow's 20:00.
  EXPECT_EQ(next_daily_deadline(utc(2026, 11, 21, 19, 30), london, kHour), utc(2026, 11, 22, 20, 0));
  EXPECT_EQ(next_daily_deadline(utc(2026, 11, 21, 18, 59), london, kHour), utc(2026, 11, 21, 20, 0));
}

TEST(DailyDeadline, ClockChangesSpringForwardAndFallBack) {
  // 29 March 2026: London's clocks go from 01:00 GMT to 02:00 BST, so 01:30
  // does not happen; the deadline is the moment of the jump (01:00 UTC).
  EXPECT_EQ(next_daily_deadline(utc(2026, 3, 28, 12, 0), daily("01:30", "Europe/London"), 0), utc(2026, 3, 29, 1, 0));
  // 25 October 2026: 01:30 happens twice (BST, then GMT): the first one.
  EXPECT_EQ(next_daily_deadline(utc(2026, 10, 24, 12, 0), daily("01:30", "Europe/London"), 0), utc(2026, 10, 25, 0, 30));
  // The evening of a change day keeps its local time.
  EXPECT_EQ(next_daily_deadline(utc(2026, 3, 29, 12, 0), daily("20:00", "Europe/London"), 0), utc(2026, 3, 29, 19, 0));
}

}  // namespace
}  // namespace galloper::server
