#include "install_sh.h"

#include <cstdlib>
#include <filesystem>

#include "temp_dir.h"

namespace fleet::test {

const std::string kInstallSh = std::string(FLEET_SOURCE_DIR) + "/install.sh";

std::string user_path() {
  const char* path = std::getenv("PATH");
  return path ? path : "/usr/bin:/bin";
}

RunResult install_sh(const std::vector<std::string>& args, const std::string& cwd,
                     const std::string& home, const std::string& path) {
  std::vector<std::string> argv{kInstallSh};
  argv.insert(argv.end(), args.begin(), args.end());
  RunOptions options;
  options.cwd = cwd;
  options.env = {{"HOME", home}};
  if (!path.empty()) options.env.emplace_back("PATH", path);
  return run_process(argv, options);
}

std::string path_with_tracing_cmake(const std::string& dir, const std::string& trace) {
  std::filesystem::create_directories(dir);
  write_file(dir + "/cmake", "#!/bin/sh\ntouch '" + trace + "'\nexit 1\n");
  std::filesystem::permissions(dir + "/cmake", std::filesystem::perms::owner_all);
  return dir + ":" + user_path();
}

}  // namespace fleet::test
