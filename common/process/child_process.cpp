#include "process/child_process.h"

#include <utility>

extern char** environ;

namespace fleet {

HeldChild spawn_held(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                     const sigset_t& child_mask, const sigset_t* default_signals,
                     bool die_with_parent, int cgroup_fd) {
  HeldChild child;
  Pipe out = make_pipe(), err = make_pipe();
  child.out = std::move(out.read_end);
  child.err = std::move(err.read_end);
  const UniqueFd out_write = std::move(out.write_end), err_write = std::move(err.write_end);
  SpawnOptions options;
  options.stdout_fd = out_write.get();
  options.stderr_fd = err_write.get();
  options.mask = child_mask;
  if (default_signals != nullptr) {
    options.default_signals = *default_signals;
  } else {
    sigemptyset(&options.default_signals);
    sigaddset(&options.default_signals, SIGPIPE);
  }
  options.die_with_parent = die_with_parent;
  options.cgroup_fd = cgroup_fd;
  options.hold = true;
  child.process = spawn(argv, env, options);
  child.pid = child.process.pid();
  child.in_cgroup = child.process.in_cgroup();
  return child;
}

std::optional<ExecFailure> release_child(HeldChild& child) {
  return child.process.release();
}

void abort_child(HeldChild& child) {
  child.process.abort();
}

std::vector<std::string> environment_with(const std::vector<std::string>& overrides) {
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view var(*entry);
    const std::string_view name = var.substr(0, var.find('='));
    bool replaced = false;
    for (const auto& override_entry : overrides) {
      replaced =
          replaced || std::string_view(override_entry).substr(0, override_entry.find('=')) == name;
    }
    if (!replaced) env.emplace_back(var);
  }
  env.insert(env.end(), overrides.begin(), overrides.end());
  return env;
}

}  // namespace fleet
