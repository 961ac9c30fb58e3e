#include "agents/codex/codex_session_file.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string_view>

#include "agent/agent_profile.h"
#include "base/files.h"
#include "base/paths.h"

namespace fleet {
namespace {

// The time (in seconds) a UUIDv7 was made, from its first 48 bits (milliseconds since the
// epoch); nullopt for another id.
std::optional<std::time_t> uuid_v7_time(std::string_view id) {
  if (id.size() != 36 || id[8] != '-' || id[13] != '-' || id[14] != '7') return std::nullopt;
  std::uint64_t milliseconds = 0;
  for (const char c : std::string(id.substr(0, 8)) + std::string(id.substr(9, 4))) {
    const auto digit = std::string_view("0123456789abcdef")
                           .find(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (digit == std::string_view::npos) return std::nullopt;
    milliseconds = milliseconds * 16 + digit;
  }
  return static_cast<std::time_t>(milliseconds / 1000);
}

}  // namespace

std::string codex_session_file(const std::string& session_id, const std::string&) {
  if (session_id.empty()) return "";
  const std::string sessions = env_or_home("CODEX_HOME", "/.codex") + "/sessions";
  std::string suffix = "-";
  suffix += session_id;
  suffix += ".jsonl";
  const std::string compressed_suffix = suffix + std::string(kCompressedSuffix);
  std::string compressed;  // a rollout Codex keeps compressed, when no plain one is found
  for (const std::string& day : codex_rollout_days(session_id, std::time(nullptr))) {
    const std::string folder = sessions + "/" + day;
    for (const std::string& name : names_newest_first(folder)) {
      if (!name.starts_with("rollout-")) continue;
      if (name.ends_with(suffix)) return folder + "/" + name;
      if (name.ends_with(compressed_suffix) && compressed.empty()) compressed = folder + "/" + name;
    }
  }
  return compressed;
}

std::vector<std::string> codex_rollout_days(const std::string& session_id, std::time_t now) {
  constexpr std::time_t kDay = 24 * 60 * 60;
  std::vector<std::time_t> moments = {now, now - kDay};
  if (const std::optional<std::time_t> started = uuid_v7_time(session_id)) {
    moments.insert(moments.end(), {*started - kDay, *started, *started + kDay});
  }
  std::vector<std::string> days;
  for (const std::time_t moment : moments) {
    std::tm local{};
    char day[16];
    if (::localtime_r(&moment, &local) == nullptr ||
        std::strftime(day, sizeof day, "%Y/%m/%d", &local) == 0)
      continue;
    if (std::ranges::find(days, day) == days.end()) days.emplace_back(day);
  }
  return days;
}

}  // namespace fleet
