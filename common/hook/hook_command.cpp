#include "hook/hook_command.h"

namespace fleet {
namespace {

constexpr std::string_view kProbe = "command -v ";
constexpr std::string_view kProbeTail = " >/dev/null 2>&1 || ";
constexpr std::string_view kExec = "; exec ";

bool is_safe_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
         c == '.' || c == '_' || c == '+' || c == '-';
}

bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

// One shell word starting at `i` (which is not blank): `raw` as written, `plain` with quotes
// and backslashes removed. Returns the index after the word.
std::size_t read_word(std::string_view text, std::size_t i, std::string& raw, std::string& plain) {
  const std::size_t start = i;
  plain.clear();
  while (i < text.size() && !is_blank(text[i]) && text[i] != ';') {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      std::size_t close = text.find(c, i + 1);
      if (close == std::string_view::npos) close = text.size();
      plain.append(text.substr(i + 1, close - i - 1));
      i = close == text.size() ? close : close + 1;
    } else if (c == '\\' && i + 1 < text.size()) {
      plain += text[i + 1];
      i += 2;
    } else {
      plain += c;
      ++i;
    }
  }
  raw.assign(text.substr(start, i - start));
  return i;
}

std::size_t skip_blanks(std::string_view text, std::size_t i) {
  while (i < text.size() && is_blank(text[i])) ++i;
  return i;
}

// Where a missing executable was looked for, for the message (only characters that need no
// quoting inside "…").
std::string where(const std::string& executable) {
  if (executable.find('/') == std::string::npos) return "not found on PATH";
  for (char c : executable) {
    if (!is_safe_char(c)) return "not found where it was installed";
  }
  return "not found at " + executable;
}

}  // namespace

std::string shell_quote(std::string_view word) {
  bool safe = !word.empty();
  for (char c : word) safe = safe && is_safe_char(c);
  if (safe) return std::string(word);
  std::string quoted = "'";
  for (char c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::vector<std::string> shell_words(std::string_view text) {
  std::vector<std::string> words;
  std::string raw, plain;
  for (std::size_t i = skip_blanks(text, 0); i < text.size(); i = skip_blanks(text, i)) {
    if (text[i] == ';') {
      ++i;
      continue;
    }
    i = read_word(text, i, raw, plain);
    words.push_back(plain);
  }
  return words;
}

std::optional<HookCommand> parse_hook_command(std::string_view command) {
  HookCommand hook;
  std::string raw, plain;
  std::size_t i = skip_blanks(command, 0);
  if (command.substr(i).starts_with(kMachineRead)) {
    const std::size_t probe = command.find(kProbe, i + kMachineRead.size());
    if (probe != std::string_view::npos) {
      std::optional<HookCommand> selected = parse_hook_command(command.substr(probe));
      if (selected && selected->guarded) return selected;
    }
  }
  if (command.substr(i).starts_with(kProbe)) {
    // command -v EXE >/dev/null 2>&1 || …; exec EXE ARGS
    i = read_word(command, skip_blanks(command, i + kProbe.size()), raw, plain);
    const std::size_t exec = command.find(std::string(kExec) + raw, i);
    if (!raw.empty() && exec != std::string_view::npos) {
      const std::string_view missing = command.substr(i, exec - i);
      hook.guarded = true;
      hook.executable = raw;
      hook.arguments.assign(command.substr(exec + kExec.size() + raw.size()));
      hook.exit_if_missing =
          missing.find("exit 2") != std::string_view::npos   ? exit_status::hook_blocks
          : missing.find("exit 1") != std::string_view::npos ? exit_status::hook_warns
          : missing.find("exit 0") != std::string_view::npos ? exit_status::ok
                                                             : exit_status::not_found;
      while (!hook.arguments.empty() && (hook.arguments.back() == ' ')) hook.arguments.pop_back();
      return hook;
    }
    i = skip_blanks(command, 0);  // not the suite's form: read it as a plain command
  }
  for (;;) {
    i = skip_blanks(command, i);
    if (i >= command.size()) return std::nullopt;
    const std::size_t end = read_word(command, i, raw, plain);
    const std::size_t eq = raw.find('=');
    const bool assignment = eq != std::string::npos && eq > 0 && raw.find_first_of("/'\"") > eq;
    if (!assignment) {
      hook.executable = raw;
      hook.arguments.assign(command.substr(end));
      return hook;
    }
    i = end;
  }
}

std::string format_hook_command(const HookCommand& hook, std::string_view name,
                                std::string_view agent) {
  if (!hook.guarded) return hook.executable + hook.arguments;
  std::string plain, raw;
  read_word(hook.executable, 0, raw, plain);
  std::string message = "fleet-hooks: " + std::string(name) +
                        " is not installed on this machine (" + where(plain) + ")";
  if (hook.exit_if_missing == exit_status::hook_blocks) {
    message += ", so this call is blocked. " + std::string(kInstallRoutes) + ", then start " +
               std::string(agent) + " again";
  } else {
    message += "; this call ran without it. " + std::string(kInstallRoutes);
  }
  return std::string(kProbe) + hook.executable + std::string(kProbeTail) + "{ echo \"" + message +
         "\" >&2; exit " + std::to_string(hook.exit_if_missing) + "; }" + std::string(kExec) +
         hook.executable + hook.arguments;
}

std::optional<std::string> command_executable(std::string_view command) {
  const auto hook = parse_hook_command(command);
  if (!hook) return std::nullopt;
  std::string raw, plain;
  read_word(hook->executable, 0, raw, plain);
  if (plain.empty()) return std::nullopt;
  return plain;
}

std::optional<std::string> command_executable_name(std::string_view command) {
  std::optional<std::string> executable = command_executable(command);
  if (!executable) return std::nullopt;
  if (const std::size_t at = executable->find(kMachineDirectory); at != std::string::npos)
    executable->erase(at, kMachineDirectory.size());
  const std::size_t slash = executable->rfind('/');
  return slash == std::string::npos ? *executable : executable->substr(slash + 1);
}

std::vector<std::string> command_tools(std::string_view arguments) {
  std::vector<std::string> tools;
  const std::vector<std::string> words = shell_words(arguments);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "--tool" && i + 1 < words.size()) {
      tools.push_back(words[++i]);
    } else if (words[i].starts_with("--tool=")) {
      tools.push_back(words[i].substr(7));
    }
  }
  return tools;
}

}  // namespace fleet
