#include "hook/hook_command.h"

#include "base/word_list.h"

namespace fleet {
namespace {

// The guarded form of an earlier release, still read (install rewrites it).
constexpr std::string_view kProbe = "command -v ";
constexpr std::string_view kExec = "; exec ";
// The guarded form: finds the executable as the shell would, and runs it only from an absolute
// path outside the project.
constexpr std::string_view kFind = "exe=$(command -v ";
constexpr std::string_view kFound = " 2>/dev/null) || exe=; case \"$exe\" in /*) ;; \"\") ";
constexpr std::string_view kInProject = "case \"$exe\" in \"";
// A bare name's guarded form: not on PATH, the install directories are looked in; it then runs
// what it found.
constexpr std::string_view kSearch = " 2>/dev/null) || for d in";
constexpr std::string_view kExecFound = "; exec \"$exe\"";

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
  if (executable.find('/') == std::string::npos) {
    std::vector<std::string> places;
    for (const InstallDirectory& dir : kInstallDirectories) {
      // "~" + a string is GCC 12's -Wrestrict false positive: append instead.
      std::string place(dir.home.empty() ? dir.shell : "~");
      places.push_back(place.append(dir.home));
    }
    return "not found on PATH or in " + word_list(places, ", ", " or ");
  }
  for (char c : executable) {
    if (!is_safe_char(c)) return "not found where it was installed";
  }
  return "not found at " + executable;
}

// The exit status the first `exit N` of a guarded form's `missing` part gives.
int missing_exit(std::string_view missing) {
  return missing.find("exit 2") != std::string_view::npos   ? exit_status::hook_blocks
         : missing.find("exit 1") != std::string_view::npos ? exit_status::hook_warns
         : missing.find("exit 0") != std::string_view::npos ? exit_status::ok
                                                            : exit_status::not_found;
}

// `{ echo "MESSAGE" >&2; exit N; }` for the guarded form: MESSAGE, then what becomes of the
// call (blocked, or run without the executable), and the fix.
std::string refusal(const std::string& message, const std::string& fix, int exit_status,
                    std::string_view agent) {
  std::string text = message;
  if (exit_status == exit_status::hook_blocks) {
    text += ", so this call is blocked. " + fix + ", then start " + std::string(agent) + " again";
  } else {
    text += "; this call ran without it. " + fix;
  }
  return "{ echo \"" + text + "\" >&2; exit " + std::to_string(exit_status) + "; }";
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
    std::size_t probe = command.find(kFind, i + kMachineRead.size());
    if (probe == std::string_view::npos) probe = command.find(kProbe, i + kMachineRead.size());
    if (probe != std::string_view::npos) {
      std::optional<HookCommand> selected = parse_hook_command(command.substr(probe));
      if (selected && selected->guarded) return selected;
    }
  }
  if (command.substr(i).starts_with(kFind)) {
    // exe=$(command -v EXE …) || exe=; case … esac; case "$exe" in "${VAR:-$PWD}"/*) … esac;
    // exec EXE ARGS (found where the checks found it: the same PATH)
    i = read_word(command, i + kFind.size(), raw, plain);
    hook.searches_install_directories = command.substr(i).starts_with(kSearch);
    const std::string exec_text =
        hook.searches_install_directories ? std::string(kExecFound) : std::string(kExec) + raw;
    const std::size_t exec = command.find(exec_text, i);
    if (!raw.empty() && exec != std::string_view::npos) {
      hook.guarded = true;
      hook.executable = raw;
      hook.arguments.assign(command.substr(exec + exec_text.size()));
      hook.exit_if_missing = missing_exit(command.substr(i, exec - i));
      const std::size_t project = command.find(kInProject, i);
      if (project != std::string_view::npos &&
          command.substr(project).starts_with(std::string(kInProject) + "${")) {
        const std::size_t name = project + kInProject.size() + 2;
        hook.project_variable.assign(command.substr(name, command.find(':', name) - name));
      }
      while (!hook.arguments.empty() && (hook.arguments.back() == ' ')) hook.arguments.pop_back();
      return hook;
    }
    i = skip_blanks(command, 0);
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
      hook.exit_if_missing = missing_exit(missing);
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
  const std::string program(name);
  const int exit = hook.exit_if_missing;
  const std::string project =
      hook.project_variable.empty() ? "$PWD" : "${" + hook.project_variable + ":-$PWD}";
  // A bare name: also where the install routes put it, run from where it was found.
  const bool bare = plain.find('/') == std::string::npos && shell_quote(plain) == hook.executable;
  std::string found = std::string(kFound);
  if (bare) {
    found = std::string(kSearch);
    for (const InstallDirectory& dir : kInstallDirectories) found += " " + std::string(dir.shell);
    found += "; do exe=$d/" + plain +
             "; [ -f \"$exe\" ] && [ -x \"$exe\" ] && break; exe=; done; " +
             std::string(kFound.substr(kFound.find("case")));
  }
  return std::string(kFind) + hook.executable + found +
         refusal(
             "fleet-hooks: " + program + " is not installed on this machine (" + where(plain) + ")",
             std::string(kInstallRoutes), exit, agent) +
         " ;; *) " +
         refusal("fleet-hooks: " + program +
                     " was found through a relative PATH entry, where a repository can put a "
                     "program of its own",
                 "Take the relative entries out of PATH (and out of any PATH a settings file "
                 "sets)",
                 exit, agent) +
         " ;; esac; " + std::string(kInProject) + project + "\"/*) " +
         refusal("fleet-hooks: " + program +
                     " was found inside the project, where a repository can put a program of "
                     "its own",
                 "Install fleet-hooks outside the project and put its bin directory on PATH", exit,
                 agent) +
         " ;; esac" + (bare ? std::string(kExecFound) : std::string(kExec) + hook.executable) +
         hook.arguments;
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
