#pragma once

#include <string>

namespace fleet {

// The current time as ISO-8601 UTC with microseconds, the way AutoSkillit (Python
// datetime.now(timezone.utc).isoformat()) writes it: "2026-05-06T13:30:00.123456+00:00".
std::string utc_timestamp_now();

}  // namespace fleet
