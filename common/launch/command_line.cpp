#include "launch/command_line.h"

namespace fleet {
namespace {

bool takes_value_here(const std::vector<std::string>& argv, std::size_t i) {
  return i + 1 < argv.size() && !argv[i + 1].starts_with("-");
}

// Removes the options named in `valued` (with their value) and `flags`.
std::vector<std::string> remove_options(const std::vector<std::string>& argv,
                                        std::initializer_list<std::string_view> valued,
                                        std::initializer_list<std::string_view> flags) {
  std::vector<std::string> out;
  bool options_over = false;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (i == 0 || options_over) {
      out.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_over = true;
      out.push_back(arg);
      continue;
    }
    bool drop = false;
    for (std::string_view name : valued) {
      if (arg == name) {
        drop = true;
        if (takes_value_here(argv, i)) ++i;
      } else if (name.starts_with("--") && arg.starts_with(std::string(name) + "=")) {
        drop = true;
      }
    }
    for (std::string_view name : flags) drop = drop || arg == name;
    if (!drop) out.push_back(arg);
  }
  return out;
}

}  // namespace

bool is_claude_code(const std::vector<std::string>& argv) {
  if (argv.empty()) return false;
  const std::string_view program = argv.front();
  const std::string_view base = program.substr(program.find_last_of('/') + 1);
  return base == "claude" || base == "claude.exe";
}

std::optional<std::string> option_value(const std::vector<std::string>& argv, std::string_view name,
                                        std::string_view short_name) {
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg == "--") break;
    if (arg == name || (!short_name.empty() && arg == short_name)) {
      if (takes_value_here(argv, i)) return argv[i + 1];
      return std::nullopt;
    }
    const std::string prefix = std::string(name) + "=";
    if (arg.starts_with(prefix)) return arg.substr(prefix.size());
  }
  return std::nullopt;
}

std::vector<std::string> without_resume(const std::vector<std::string>& argv) {
  return remove_options(argv, {"--resume", "-r"}, {"--continue", "-c"});
}

std::vector<std::string> with_option(const std::vector<std::string>& argv, std::string_view name,
                                     std::string_view value) {
  std::vector<std::string> out;
  out.reserve(argv.size() + 2);
  for (std::size_t i = 0; i < argv.size(); ++i) {
    out.push_back(argv[i]);
    if (i == 0) {
      out.emplace_back(name);
      out.emplace_back(value);
    }
  }
  return out;
}

std::vector<std::string> without_option(const std::vector<std::string>& argv,
                                        std::string_view name) {
  return remove_options(argv, {name}, {});
}

}  // namespace fleet
