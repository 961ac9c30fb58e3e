#include "launch/command_line.h"

#include <algorithm>
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

// Whether argv[i] is an option whose value is the next word (`-m gpt-5`, not `--model=gpt-5`).
bool value_follows(const std::vector<std::string>& argv, std::size_t i, const AgentProfile& agent) {
  return std::ranges::find(agent.resume.valued_options, argv[i]) !=
         agent.resume.valued_options.end();
}

// The index of the first word after `from` that is neither an option nor an option's value,
// 0 when there is none before the end or a "--".
std::size_t next_operand(const std::vector<std::string>& argv, std::size_t from,
                         const AgentProfile& agent) {
  for (std::size_t i = from + 1; i < argv.size() && argv[i] != "--"; ++i) {
    if (!argv[i].starts_with("-")) return i;
    if (value_follows(argv, i, agent)) ++i;
  }
  return 0;
}

// The index of the resume word after the profile's subcommand (Codex: "resume" after "exec",
// with exec's options between them or not), 0 when the subcommand's first operand is another.
std::size_t resume_word_at(const std::vector<std::string>& argv, const AgentProfile& agent) {
  const std::size_t sub = subcommand_at(argv, agent);
  if (sub == 0) return 0;
  const std::size_t at = next_operand(argv, sub, agent);
  return at > 0 && argv[at] == agent.resume.word ? at : 0;
}

// Whether one of the profile's latest-session flags follows the resume word at `at`.
bool names_latest(const std::vector<std::string>& argv, std::size_t at, const AgentProfile& agent) {
  for (std::size_t i = at + 1; i < argv.size() && argv[i] != "--"; ++i) {
    if (std::ranges::find(agent.resume.latest_flags, argv[i]) != agent.resume.latest_flags.end())
      return true;
  }
  return false;
}

// The index of the id after the resume word at `at`: its first operand, 0 when there is none
// or a latest-session flag names none (Codex's `resume --last [PROMPT]`).
std::size_t resumed_id_at(const std::vector<std::string>& argv, std::size_t at,
                          const AgentProfile& agent) {
  return names_latest(argv, at, agent) ? 0 : next_operand(argv, at, agent);
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

const RefusedOption* refused_option(const std::vector<std::string>& argv,
                                    const AgentProfile& agent) {
  for (std::size_t i = 1; i < argv.size() && argv[i] != "--"; ++i) {
    for (const RefusedOption& refused : agent.refused_options) {
      if (argv[i] == refused.option || argv[i].starts_with(std::string(refused.option) + "="))
        return &refused;
    }
  }
  return nullptr;
}

namespace {

// Whether the comma-separated `words` name `word`.
bool names_word(std::string_view words, std::string_view word) {
  while (true) {
    const std::size_t comma = words.find(',');
    if (words.substr(0, comma) == word) return true;
    if (comma == std::string_view::npos) return false;
    words.remove_prefix(comma + 1);
  }
}

// Whether `run` is on in argv: the option, with a value that lacks run.unless when it is set.
bool option_on(const std::vector<std::string>& argv, const RunSwitch& run) {
  const std::string with_value = std::string(run.option) + "=";
  for (std::size_t i = 1; i < argv.size() && argv[i] != "--"; ++i) {
    std::optional<std::string_view> value;
    if (argv[i] == run.option) {
      if (run.unless.empty() && run.when.empty()) return true;
      if (i + 1 < argv.size()) value = argv[i + 1];
    } else if (argv[i].starts_with(with_value)) {
      value = std::string_view(argv[i]).substr(with_value.size());
    }
    if (value && (run.unless.empty() || !names_word(*value, run.unless)) &&
        (run.when.empty() || names_word(*value, run.when)))
      return true;
  }
  return false;
}

// Whether `run`'s variable is set in `environment` to a value that turns it on.
bool variable_on(const std::vector<std::string>& environment, const RunSwitch& run) {
  const std::string prefix = std::string(run.variable) + "=";
  std::optional<std::string_view> value;
  for (const std::string& entry : environment) {
    if (entry.starts_with(prefix)) value = std::string_view(entry).substr(prefix.size());
  }
  return value && !value->empty() && *value != "0" && *value != "false";
}

}  // namespace

const RunSwitch* run_switch(const std::vector<std::string>& argv,
                            const std::vector<std::string>& environment,
                            const AgentProfile& agent) {
  for (const RunSwitch& run : agent.run_switches) {
    if (!run.option.empty() && option_on(argv, run)) return &run;
    if (!run.variable.empty() && variable_on(environment, run)) return &run;
  }
  return nullptr;
}

bool resumes_session(const std::vector<std::string>& argv, const AgentProfile& agent) {
  return without_resume(argv, agent).size() != argv.size();
}

std::optional<std::string> resumed_session_id(const std::vector<std::string>& argv,
                                              const AgentProfile& agent) {
  const ResumeForm& form = agent.resume;
  if (form.subcommand.empty()) return option_value(argv, form.word, form.short_word);
  const std::size_t at = resume_word_at(argv, agent);
  const std::size_t id = at == 0 ? 0 : resumed_id_at(argv, at, agent);
  if (id == 0) return std::nullopt;
  return argv[id];
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
  if (const std::size_t at = resume_word_at(argv, agent); at > 0) {
    if (const std::size_t id = resumed_id_at(argv, at, agent); id > 0)
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(id));
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(at));
  }
  std::vector<std::string_view> flags(form.latest_flags.begin(), form.latest_flags.end());
  flags.insert(flags.end(), form.resume_only_flags.begin(), form.resume_only_flags.end());
  return remove_options(out, {}, flags);
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
