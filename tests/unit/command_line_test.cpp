#include "launch/command_line.h"

#include <doctest/doctest.h>

using namespace fleet;
using Args = std::vector<std::string>;

TEST_CASE("command_line: option values in their spellings") {
  const Args argv = {"claude", "-p", "hi", "--resume", "abc", "--model=opus"};
  CHECK(option_value(argv, "--resume", "-r").value() == "abc");
  CHECK(option_value(argv, "--model").value() == "opus");
  CHECK(option_value({"claude", "-r", "xyz"}, "--resume", "-r").value() == "xyz");
  CHECK(option_value({"claude", "--resume=q"}, "--resume", "-r").value() == "q");
  CHECK_FALSE(option_value({"claude", "--resume"}, "--resume", "-r"));
  CHECK_FALSE(option_value({"claude", "--resume", "-p"}, "--resume", "-r"));
  CHECK_FALSE(option_value({"claude", "--", "--resume", "x"}, "--resume", "-r"));
  CHECK_FALSE(option_value({"--resume", "x"}, "--resume", "-r"));  // argv[0] is the program
}

TEST_CASE("command_line: removing every form of resume") {
  CHECK(without_resume({"claude", "-p", "hi", "--resume", "abc", "--verbose"}, claude_profile()) ==
        Args{"claude", "-p", "hi", "--verbose"});
  CHECK(without_resume({"claude", "-r", "abc", "-p", "x"}, claude_profile()) ==
        Args{"claude", "-p", "x"});
  CHECK(without_resume({"claude", "--resume=abc", "--continue", "-c", "-p", "x"},
                       claude_profile()) == Args{"claude", "-p", "x"});
  CHECK(without_resume({"claude", "--resume", "-p", "x"}, claude_profile()) ==
        Args{"claude", "-p", "x"});
  CHECK(without_resume({"claude", "--", "--resume", "x"}, claude_profile()) ==
        Args{"claude", "--", "--resume", "x"});
}

TEST_CASE("command_line: adding and removing a valued option") {
  CHECK(with_option({"claude", "-p", "hi"}, "--session-id", "u-1") ==
        Args{"claude", "--session-id", "u-1", "-p", "hi"});
  CHECK(without_option({"claude", "--session-id", "old", "-p", "hi", "--session-id=x"},
                       "--session-id") == Args{"claude", "-p", "hi"});
}
