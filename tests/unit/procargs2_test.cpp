// The parser of macOS's KERN_PROCARGS2 area (common/process/procargs2.h), run on every system.
#include "process/procargs2.h"

#include <doctest/doctest.h>

#include <cstring>
#include <string>

namespace {

// An area as sysctl KERN_PROCARGS2 shows it: argc, then `strings` (the path, padding, the
// arguments, the environment and what follows, with their NULs).
std::string area(int argc, const std::string& strings) {
  std::string bytes(sizeof argc, '\0');
  std::memcpy(bytes.data(), &argc, sizeof argc);
  return bytes + strings;
}

std::string z(const char* text, std::size_t size) {
  return std::string(text, size);
}

}  // namespace

TEST_CASE("procargs2: the arguments and the environment after the path and its padding") {
  const auto parsed = fleet::parse_procargs2(
      area(2, z("/bin/sh\0\0\0\0sh\0-c\0A=1\0TOKEN=x\0\0apple=1\0", 38)), 1024);
  REQUIRE(parsed);
  CHECK(parsed->arguments == z("sh\0-c\0", 6));
  CHECK(parsed->environment == z("A=1\0TOKEN=x\0", 12));
}

TEST_CASE("procargs2: arguments shortened in place leave NULs before the environment") {
  // node set process.title: "node\0server.js\0" (15 bytes) became "title\0" and 9 NULs.
  const auto parsed = fleet::parse_procargs2(
      area(2, z("/usr/local/bin/node\0\0title\0\0\0\0\0\0\0\0\0\0TOKEN=x\0B=2\0\0", 49)), 1024);
  REQUIRE(parsed);
  CHECK(parsed->arguments == z("title\0\0", 7));
  CHECK(parsed->environment == z("TOKEN=x\0B=2\0", 12));
}

TEST_CASE("procargs2: an empty argument, an area cut short, a cap, too little to parse") {
  const auto empty_argument =
      fleet::parse_procargs2(area(3, z("/bin/x\0\0x\0\0y\0E=1\0\0", 18)), 1024);
  REQUIRE(empty_argument);
  CHECK(empty_argument->arguments == z("x\0\0y\0", 5));
  CHECK(empty_argument->environment == z("E=1\0", 4));
  // The last string without its NUL: it ends with the area.
  const auto cut = fleet::parse_procargs2(area(1, z("/bin/x\0x\0E=1\0F=", 15)), 1024);
  REQUIRE(cut);
  CHECK(cut->environment == z("E=1\0F=", 6));
  const auto capped = fleet::parse_procargs2(area(1, z("/bin/x\0x\0E=1\0F=2\0\0", 18)), 3);
  REQUIRE(capped);
  CHECK(capped->environment == "E=1");
  CHECK_FALSE(fleet::parse_procargs2(std::string(2, '\0'), 1024));
  CHECK_FALSE(fleet::parse_procargs2(area(1, "/bin/x"), 1024));  // no end to the path
}
