#include "base/timestamp.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <string_view>

namespace fleet {
namespace {

// The `count` digits at the front of `text` as a number, consumed; -1 when they are not all
// digits. (Not an optional: GCC 12 warns of optionals of this shape as maybe uninitialized
// where it inlines this into parse_timestamp_micros.)
int take_digits(std::string_view& text, std::size_t count) {
  if (text.size() < count) return -1;
  int value = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  text.remove_prefix(count);
  return value;
}

bool take(std::string_view& text, char c) {
  if (text.empty() || text.front() != c) return false;
  text.remove_prefix(1);
  return true;
}

// ".123456" (any number of digits) as microseconds, consumed; 0 when there is none.
std::optional<std::int64_t> take_fraction(std::string_view& text) {
  if (!take(text, '.')) return 0;
  std::int64_t micros = 0;
  std::size_t digits = 0;
  for (; !text.empty() && text.front() >= '0' && text.front() <= '9'; ++digits) {
    if (digits < 6) micros = micros * 10 + (text.front() - '0');
    text.remove_prefix(1);
  }
  if (digits == 0) return std::nullopt;
  for (std::size_t i = digits; i < 6; ++i) micros *= 10;
  return micros;
}

// "Z", "+HH:MM", "-HHMM" or "" as seconds east of UTC; nullopt for anything else.
std::optional<int> take_zone(std::string_view& text) {
  if (text.empty() || take(text, 'Z') || take(text, 'z')) return 0;
  const int sign = text.front() == '-' ? -1 : 1;
  if (!take(text, '+') && !take(text, '-')) return std::nullopt;
  const int hours = take_digits(text, 2);
  take(text, ':');
  const int minutes = take_digits(text, 2);
  if (hours < 0 || minutes < 0 || hours > 23 || minutes > 59) return std::nullopt;
  return sign * (hours * 3600 + minutes * 60);
}

}  // namespace

std::string utc_timestamp_now() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  struct tm parts {};
  ::gmtime_r(&now.tv_sec, &parts);
  char text[96];  // room for any int the format could print
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%06ld+00:00",
                parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min,
                parts.tm_sec, static_cast<long>(now.tv_nsec / 1000));
  return text;
}

std::int64_t utc_micros_now() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1000000 + now.tv_nsec / 1000;
}

std::optional<std::int64_t> parse_timestamp_micros(std::string_view text) {
  struct tm parts {};
  const int year = take_digits(text, 4);
  const bool dashes = take(text, '-');
  const int month = take_digits(text, 2);
  const int day = dashes && take(text, '-') ? take_digits(text, 2) : -1;
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31) return std::nullopt;
  parts.tm_year = year - 1900;
  parts.tm_mon = month - 1;
  parts.tm_mday = day;
  std::int64_t micros = 0;
  if (take(text, 'T') || take(text, 't') || take(text, ' ')) {
    const int hour = take_digits(text, 2);
    const int minute = take(text, ':') ? take_digits(text, 2) : -1;
    const int second = take(text, ':') ? take_digits(text, 2) : 0;
    const auto fraction = take_fraction(text);
    if (hour < 0 || minute < 0 || second < 0 || !fraction || hour > 23 || minute > 59 ||
        second > 60)
      return std::nullopt;
    parts.tm_hour = hour;
    parts.tm_min = minute;
    parts.tm_sec = second;
    micros = *fraction;
  }
  const auto zone = take_zone(text);
  if (!zone || !text.empty()) return std::nullopt;
  const std::int64_t seconds = static_cast<std::int64_t>(::timegm(&parts)) - *zone;
  return seconds * 1000000 + micros;
}

std::optional<std::int64_t> parse_duration_seconds(std::string_view text) {
  if (text.size() < 2 || text.size() > 12) return std::nullopt;
  std::int64_t count = 0;
  for (const char c : text.substr(0, text.size() - 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    count = count * 10 + (c - '0');
  }
  switch (text.back()) {
    case 's':
      return count;
    case 'm':
      return count * 60;
    case 'h':
      return count * 3600;
    case 'd':
      return count * 86400;
    default:
      return std::nullopt;
  }
}

std::string seconds_text(double seconds) {
  char text[64];
  // Below half a millisecond it is 0 (not "-0").
  std::snprintf(text, sizeof text, "%.3f", std::fabs(seconds) < 0.0005 ? 0.0 : seconds);
  std::string_view digits = text;
  while (digits.ends_with('0')) digits.remove_suffix(1);
  if (digits.ends_with('.')) digits.remove_suffix(1);
  return std::string(digits) + " s";
}

}  // namespace fleet
