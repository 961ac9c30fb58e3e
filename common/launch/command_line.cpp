#include "launch/command_line.h"

#include <span>

namespace fleet {
namespace {

bool takes_value_here(const std::vector<std::string>& argv, std::size_t i) {
  return i + 1 < argv.size() && !argv[i + 1].starts_with("-");
}

// Removes the options named in `valued` (with their value) and `flags`.
std::vector<std::string> remove_options(const std::vector<std::string>& argv,
                                        std::span<const std::string_view> valued,
                                        std::span<const std::string_view> flags) {
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

// The index of the profile's resume subcommand word (Codex's "exec") among argv's words
// before a "--", 0 when it has none.
std::size_t subcommand_at(const std::vector<std::string>& argv, const AgentProfile& agent) {
  for (std::size_t i = 1; i < argv.size() && argv[i] != "--"; ++i) {
    if (argv[i] == agent.resume.subcommand) return i;
  }
  return 0;
}

}  // namespace

bool is_agent_command(const std::vector<std::string>& argv, const AgentProfile& agent) {
  if (argv.empty()) return false;
  const std::string_view program = argv.front();
  const std::string_view base = program.substr(program.find_last_of('/') + 1);
  for (std::string_view name : agent.programs) {
    if (base == name) return agent.resume.subcommand.empty() || subcommand_at(argv, agent) > 0;
  }
  return false;
}

bool resumes_session(const std::vector<std::string>& argv, const AgentProfile& agent) {
  return without_resume(argv, agent).size() != argv.size();
}

std::optional<std::string> resumed_session_id(const std::vector<std::string>& argv,
                                              const AgentProfile& agent) {
  const ResumeForm& form = agent.resume;
  if (form.subcommand.empty()) return option_value(argv, form.word, form.short_word);
  const std::size_t at = subcommand_at(argv, agent);
  if (at == 0 || at + 2 >= argv.size() || argv[at + 1] != form.word) return std::nullopt;
  if (argv[at + 2].starts_with("-")) return std::nullopt;
  return argv[at + 2];
}

std::vector<std::string> without_resume(const std::vector<std::string>& argv,
                                        const AgentProfile& agent) {
  const ResumeForm& form = agent.resume;
  if (form.subcommand.empty()) {
    std::vector<std::string_view> valued = {form.word};
    if (!form.short_word.empty()) valued.push_back(form.short_word);
    return remove_options(argv, valued, form.latest_flags);
  }
  std::vector<std::string> out = argv;
  const std::size_t at = subcommand_at(argv, agent);
  if (at > 0 && at + 1 < out.size() && out[at + 1] == form.word) {
    const bool with_id = at + 2 < out.size() && !out[at + 2].starts_with("-");
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(at + 1),
              out.begin() + static_cast<std::ptrdiff_t>(at + (with_id ? 3 : 2)));
  }
  return remove_options(out, {}, form.latest_flags);
}

std::vector<std::string> with_resume(const std::vector<std::string>& argv,
                                     const AgentProfile& agent, const std::string& id) {
  std::vector<std::string> out = without_resume(argv, agent);
  const std::size_t after = agent.resume.subcommand.empty() ? 0 : subcommand_at(out, agent);
  if (out.empty() || (after == 0 && !agent.resume.subcommand.empty())) return out;
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(after + 1),
             {std::string(agent.resume.word), id});
  return out;
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
  const std::string_view valued[] = {name};
  return remove_options(argv, valued, {});
}

}  // namespace fleet
