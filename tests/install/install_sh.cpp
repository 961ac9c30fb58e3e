#include "install_sh.h"

#include <cstdlib>

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

}  // namespace fleet::test
