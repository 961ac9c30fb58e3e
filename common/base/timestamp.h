#pragma once
// Time as the suite writes it: timestamps in records, durations in messages; and read back:
// a timestamp or a duration as a person gives it (`fleet-hooks log --since`).
// Failing: nothing here fails; text that is no timestamp or duration is nullopt.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fleet {

// The current time as ISO-8601 UTC with microseconds, the way AutoSkillit (Python
// datetime.now(timezone.utc).isoformat()) writes it: "2026-05-06T13:30:00.123456+00:00".
std::string utc_timestamp_now();

// A duration as a person writes it: "0.2 s", "5 s", "1.25 s" (at most millisecond precision,
// no trailing zeros).
std::string seconds_text(double seconds);

// The current time in microseconds since the epoch (UTC).
std::int64_t utc_micros_now();

// ISO-8601 `text` as microseconds since the epoch: a date ("2026-05-06"), or a date and a
// time ("T" or a space between), to the minute, second or fraction of a second, followed by
// "Z", "+HH:MM", "-HH:MM" ("+HHMM") or nothing (UTC): what utc_timestamp_now writes and
// what `date -Is` writes. nullopt for anything else.
std::optional<std::int64_t> parse_timestamp_micros(std::string_view text);

// A duration as a person gives it, in seconds: digits followed by s, m, h or d ("90s", "10m",
// "2h", "3d"). nullopt for anything else.
std::optional<std::int64_t> parse_duration_seconds(std::string_view text);

}  // namespace fleet
