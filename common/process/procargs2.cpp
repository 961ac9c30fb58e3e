#include "process/procargs2.h"

#include <algorithm>
#include <cstring>

namespace fleet {

std::optional<ProcessStrings> parse_procargs2(std::string_view area, std::size_t max_bytes) {
  int argc = 0;
  if (area.size() < sizeof argc) return std::nullopt;
  std::memcpy(&argc, area.data(), sizeof argc);
  std::size_t at = area.find('\0', sizeof argc);  // the end of the executable's path
  if (at == std::string_view::npos) return std::nullopt;
  const auto skip_nuls = [&] {
    while (at < area.size() && area[at] == '\0') ++at;
  };
  // Each string with its NUL; the last may lack one at the end of the area.
  const auto next = [&](std::size_t from) {
    const std::size_t end = area.find('\0', from);
    return end == std::string_view::npos ? area.size() : end + 1;
  };
  skip_nuls();
  ProcessStrings strings;
  const std::size_t arguments_start = at;
  for (int i = 0; i < argc && at < area.size(); ++i) at = next(at);
  strings.arguments = area.substr(arguments_start, std::min(at - arguments_start, max_bytes));
  skip_nuls();
  const std::size_t environment_start = at;
  while (at < area.size() && area[at] != '\0') at = next(at);
  strings.environment = area.substr(environment_start, std::min(at - environment_start, max_bytes));
  return strings;
}

}  // namespace fleet
