#include "process/output_relay.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>
#include <csignal>

#include "process/spawn.h"

using namespace fleet;

namespace {

// A close-on-exec pipe (the platform's make_pipe) whose ends the test closes itself.
struct RawPipe {
  int read_end = -1, write_end = -1;
  RawPipe() {
    fleet::Pipe made = make_pipe();
    read_end = made.read_end.release();
    write_end = made.write_end.release();
  }
};

std::string read_available(int fd) {
  ::fcntl(fd, F_SETFL, O_NONBLOCK);
  std::string out;
  char buffer[65536];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
    out.append(buffer, static_cast<std::size_t>(n));
  return out;
}

}  // namespace

TEST_CASE("output_relay: bytes pass through unchanged and the tail is bounded") {
  RawPipe source, destination;
  OutputRelay relay(UniqueFd(source.read_end), destination.write_end, 8);
  static constexpr char kBytes[] = "binary\0data\xff\n tail!";
  const std::string data(kBytes, sizeof kBytes - 1);
  REQUIRE(::write(source.write_end, data.data(), data.size()) == static_cast<ssize_t>(data.size()));
  relay.drain();
  CHECK(read_available(destination.read_end) == data);
  CHECK(relay.tail() == data.substr(data.size() - 8));
  CHECK(relay.open());
  ::close(source.write_end);
  relay.drain();
  CHECK_FALSE(relay.open());
  CHECK(relay.fd() == -1);
  ::close(destination.read_end);
  ::close(destination.write_end);
}

TEST_CASE("output_relay: a reader that went away closes the stream") {
  ::signal(SIGPIPE, SIG_IGN);
  RawPipe source, destination;
  OutputRelay relay(UniqueFd(source.read_end), destination.write_end, 1024);
  ::close(destination.read_end);
  REQUIRE(::write(source.write_end, "x", 1) == 1);
  relay.drain();
  CHECK_FALSE(relay.open());
  // The writer now sees EPIPE, as it would writing to the gone reader directly.
  CHECK(::write(source.write_end, "y", 1) == -1);
  ::close(source.write_end);
  ::close(destination.write_end);
}

TEST_CASE("output_relay: diverted bytes go to the sink until a redirect, the tail kept") {
  RawPipe source, destination;
  OutputRelay relay(UniqueFd(source.read_end), destination.write_end, 1024);
  std::string diverted;
  relay.divert([&](const char* data, std::size_t size) { diverted.append(data, size); });
  REQUIRE(::write(source.write_end, "held\n", 5) == 5);
  relay.drain();
  CHECK(diverted == "held\n");
  CHECK(read_available(destination.read_end).empty());
  relay.redirect(destination.write_end);
  REQUIRE(::write(source.write_end, "passed\n", 7) == 7);
  relay.drain();
  CHECK(diverted == "held\n");
  CHECK(read_available(destination.read_end) == "passed\n");
  CHECK(relay.tail() == "held\npassed\n");
  ::close(source.write_end);
  ::close(destination.read_end);
  ::close(destination.write_end);
}
