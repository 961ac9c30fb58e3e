#include "child_process.h"

#include <fcntl.h>
#include <unistd.h>

#include "error.h"

extern char** environ;

namespace fleet {
namespace {

void make_pipe(UniqueFd& read_end, UniqueFd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw_errno("cannot create a pipe");
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
}

}  // namespace

HeldChild spawn_held(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                     const sigset_t& child_mask, bool keep_sigpipe_ignored, bool die_with_parent,
                     int cgroup_fd) {
  HeldChild child;
  UniqueFd out_write, err_write;
  make_pipe(child.out, out_write);
  make_pipe(child.err, err_write);
  SpawnOptions options;
  options.stdout_fd = out_write.get();
  options.stderr_fd = err_write.get();
  options.mask = child_mask;
  sigemptyset(&options.default_signals);
  if (!keep_sigpipe_ignored) sigaddset(&options.default_signals, SIGPIPE);
  options.die_with_parent = die_with_parent;
  options.cgroup_fd = cgroup_fd;
  options.hold = true;
  child.process = spawn(argv, env, options);
  child.pid = child.process.pid();
  child.in_cgroup = child.process.in_cgroup();
  return child;
}

int release_child(HeldChild& child) {
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
