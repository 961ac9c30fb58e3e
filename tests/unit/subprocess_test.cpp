#include "process/subprocess.h"

#include <doctest/doctest.h>

#include "process/child_process.h"

using namespace fleet;

TEST_CASE("subprocess: stdin - stdout - stderr - exit code - environment") {
  const auto result =
      run_shell_command("read x; echo \"got $x $FH_TEST\"; echo err >&2; exit 4", "hello\n",
                        environment_with({"FH_TEST=yes"}), std::chrono::seconds(10));
  CHECK(result.out == "got hello yes\n");
  CHECK(result.err == "err\n");
  CHECK(result.exit_code == 4);
  CHECK_FALSE(result.timed_out);
}

TEST_CASE("subprocess: a command that does not read its input or never ends") {
  const auto ignores = run_shell_command("true", std::string(1 << 20, 'x'), environment_with({}),
                                         std::chrono::seconds(10));
  CHECK(ignores.exit_code == 0);
  const auto start = std::chrono::steady_clock::now();
  const auto hangs =
      run_shell_command("sleep 30", "", environment_with({}), std::chrono::milliseconds(300));
  CHECK(hangs.timed_out);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
}
