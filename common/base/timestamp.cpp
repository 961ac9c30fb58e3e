#include "base/timestamp.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <string_view>

namespace fleet {

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
