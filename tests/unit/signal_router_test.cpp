#include "process/signal_router.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <optional>

using namespace fleet;

TEST_CASE("signal_router: forwarded signals are read in order - not delivered") {
  SignalRouter router;
  CHECK(router.next() == 0);
  for (int sig : kForwardedSignals) {
    ::kill(::getpid(), sig);
    CHECK(router.wait(5000) == sig);
  }
  CHECK(router.wait(10) == 0);
}

TEST_CASE("signal_router: SIGCHLD and reaping") {
  SignalRouter router;
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) ::_exit(9);
  CHECK(router.wait(5000) == SIGCHLD);
  std::optional<int> status;
  for (int i = 0; i < 100 && !(status = reap_children(child)); ++i) ::usleep(10000);
  REQUIRE(status);
  CHECK(WEXITSTATUS(*status) == 9);
}

TEST_CASE("signal_router: the mask is restored afterwards") {
  sigset_t before, after;
  ::sigprocmask(SIG_BLOCK, nullptr, &before);
  { SignalRouter router; }
  ::sigprocmask(SIG_BLOCK, nullptr, &after);
  CHECK(sigismember(&after, SIGTERM) == sigismember(&before, SIGTERM));
  CHECK(sigismember(&after, SIGCHLD) == sigismember(&before, SIGCHLD));
}
