#include "launch/stdout_spool.h"

#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>
#include <csignal>

using namespace fleet;

namespace {

// What deliver() writes, read back from a temporary file.
struct Delivered {
  SpoolDelivery delivery;
  std::string text;
};

Delivered deliver(const StdoutSpool& spool) {
  char path[] = "/tmp/stdout_spool_test.XXXXXX";
  const UniqueFd fd(::mkstemp(path));
  REQUIRE(fd);
  ::unlink(path);
  Delivered out;
  out.delivery = spool.deliver(fd.get());
  char buffer[4096];
  ssize_t n;
  while ((n = ::pread(fd.get(), buffer, sizeof buffer, static_cast<off_t>(out.text.size()))) > 0)
    out.text.append(buffer, static_cast<std::size_t>(n));
  return out;
}

void append(StdoutSpool& spool, const std::string& text) {
  spool.append(text.data(), text.size());
}

}  // namespace

TEST_CASE("stdout_spool: within the limit every byte is delivered as it came") {
  StdoutSpool spool(64);
  append(spool, "one\n");
  append(spool, std::string("bin\0ary", 7));
  const Delivered out = deliver(spool);
  CHECK(out.text == std::string("one\nbin\0ary", 11));
  CHECK(out.delivery.bytes == 11);
  CHECK(out.delivery.dropped == 0);
  CHECK_FALSE(out.delivery.truncated);
  CHECK_FALSE(out.delivery.problem);
}

TEST_CASE("stdout_spool: past the limit the last bytes are kept, from the first whole line") {
  StdoutSpool spool(16);
  std::string all;
  for (int i = 1; i <= 9; ++i) all += "line" + std::to_string(i) + "\n";  // 54 bytes
  SUBCASE("written in small pieces (the file wraps around)") {
    for (std::size_t at = 0; at < all.size(); at += 5) append(spool, all.substr(at, 5));
  }
  SUBCASE("written at once, more than the limit") {
    append(spool, all);
  }
  const Delivered out = deliver(spool);
  CHECK(out.text == "line8\nline9\n");  // the kept "ne7\n" is a cut line
  CHECK(out.delivery.truncated);
  CHECK(out.delivery.bytes == 12);
  CHECK(out.delivery.dropped == 42);
  CHECK(spool.received() == 54);
}

TEST_CASE("stdout_spool: a tail that is one cut line is delivered whole") {
  SUBCASE("no line end at all") {
    StdoutSpool spool(8);
    append(spool, "abcdefghijklmnop");
    CHECK(deliver(spool).text == "ijklmnop");
  }
  SUBCASE("only the last byte ends a line") {
    StdoutSpool spool(8);
    append(spool, "abcdefghijk\n");
    const Delivered out = deliver(spool);
    CHECK(out.text == "efghijk\n");
    CHECK(out.delivery.dropped == 4);
  }
}

TEST_CASE("stdout_spool: a delivery that cannot be written says why") {
  StdoutSpool spool(64);
  append(spool, "result\n");
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::close(fds[0]);  // nobody reads: EPIPE (SIGPIPE ignored here)
  const auto previous = ::signal(SIGPIPE, SIG_IGN);
  const SpoolDelivery delivery = spool.deliver(fds[1]);
  ::signal(SIGPIPE, previous);
  ::close(fds[1]);
  REQUIRE(delivery.problem);
  CHECK(delivery.problem->find("cannot write") != std::string::npos);
  CHECK(delivery.bytes == 0);
  CHECK(delivery.dropped == 7);
}
