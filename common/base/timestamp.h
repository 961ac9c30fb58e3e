#pragma once
// Time as the suite writes it: timestamps in records, durations in messages.
// Failing: nothing here fails.

#include <string>

namespace fleet {

// The current time as ISO-8601 UTC with microseconds, the way AutoSkillit (Python
// datetime.now(timezone.utc).isoformat()) writes it: "2026-05-06T13:30:00.123456+00:00".
std::string utc_timestamp_now();

// A duration as a person writes it: "0.2 s", "5 s", "1.25 s" (at most millisecond precision,
// no trailing zeros).
std::string seconds_text(double seconds);

}  // namespace fleet
