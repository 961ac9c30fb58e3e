#include "timestamp.h"

#include <cstdio>
#include <ctime>

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
  std::snprintf(text, sizeof text, "%.3f", seconds);
  std::string out = text;
  while (out.ends_with('0')) out.pop_back();
  if (out.ends_with('.')) out.pop_back();
  if (out == "-0") out = "0";
  return out + " s";
}

}  // namespace fleet
