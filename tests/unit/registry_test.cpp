#include "launch/registry.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

LaunchRecord sample() {
  return {"member-1", {4242, 123456, "boot-1"},           4242,
          "s-1",      "2026-11-22T00:00:00.000000+00:00", {"claude", "-p", "say \"hi\"\n"}};
}

}  // namespace

TEST_CASE("registry: the record round-trips through JSON") {
  const auto parsed = parse_launch_record(launch_record_json(sample()));
  REQUIRE_MESSAGE(parsed, parsed.problem());
  CHECK(*parsed == sample());
}

TEST_CASE("registry: records that cannot be trusted") {
  const std::string good = launch_record_json(sample());
  // Every refusal says why.
  const auto refused = [](const Result<LaunchRecord>& parsed) {
    return !parsed && !parsed.problem().empty();
  };
  CHECK(refused(parse_launch_record("")));
  CHECK(refused(parse_launch_record("[]")));
  CHECK(refused(parse_launch_record(good.substr(0, good.size() / 2))));
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return parse_launch_record(text);
  };
  const auto pid_one = with("\"pid\":4242", "\"pid\":1");
  CHECK(refused(pid_one));
  CHECK(pid_one.problem().find("cannot be an agent") != std::string::npos);
  CHECK(refused(with("\"pid\":4242", "\"pid\":-5")));
  CHECK(refused(with("\"pid\":4242", "\"pid\":\"4242\"")));
  CHECK(refused(with("\"pgid\":4242", "\"pgid\":1")));  // a group the agent does not lead
  CHECK(refused(with("\"boot_id\":\"boot-1\"", "\"boot_id\":\"\"")));
  CHECK(refused(with("\"command\":[", "\"command\":[1,")));
  CHECK(refused(with("\"session_id\":\"s-1\"", "\"session_id\":null")));
}

TEST_CASE("registry: write - read - remove") {
  TempDir tmp;
  const LaunchRegistry registry(tmp.path(), "member-1");
  CHECK(registry.read().status == RegistryRead::Status::missing);
  registry.write(sample());
  const RegistryRead read = registry.read();
  REQUIRE(read.status == RegistryRead::Status::ok);
  CHECK(read.record == sample());
  struct stat st {};
  REQUIRE(::stat(registry.record_path().c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  REQUIRE(::stat((tmp / "launch").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  registry.remove();
  registry.remove();  // missing is fine
  CHECK(registry.read().status == RegistryRead::Status::missing);
}

TEST_CASE("registry: a corrupt or symlinked record is reported") {
  TempDir tmp;
  const LaunchRegistry registry(tmp.path(), "m");
  registry.write(sample());
  write_file(registry.record_path(), "{\"pid\": 12");
  RegistryRead read = registry.read();
  CHECK(read.status == RegistryRead::Status::corrupt);
  CHECK(read.problem.find("not valid JSON") != std::string::npos);
  registry.remove();
  write_file(tmp / "elsewhere.json", launch_record_json(sample()));
  REQUIRE(::symlink((tmp / "elsewhere.json").c_str(), registry.record_path().c_str()) == 0);
  read = registry.read();
  CHECK(read.status == RegistryRead::Status::corrupt);
  CHECK(read.problem.find("symbolic link") != std::string::npos);
  registry.remove();  // removes the link, not its target
  CHECK(read_file(tmp / "elsewhere.json") == launch_record_json(sample()));
}

TEST_CASE("registry: member names become file names and are validated") {
  TempDir tmp;
  CHECK_THROWS_AS(LaunchRegistry(tmp.path(), "../escape"), Error);
  CHECK_THROWS_AS(LaunchRegistry(tmp.path(), "a/b"), Error);
  CHECK_THROWS_AS(LaunchRegistry(tmp.path(), ""), Error);
  CHECK(LaunchRegistry(tmp.path(), "food-truck_1").record_path() ==
        tmp / "launch/food-truck_1.json");
}
