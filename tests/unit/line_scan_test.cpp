#include "base/line_scan.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>
#include <string>
#include <vector>

#include "base/files.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::TempDir;

namespace {

struct Seen {
  std::vector<std::string> lines;
  std::vector<std::uint64_t> offsets;
  LineScanStats stats;
};

Seen scan(const std::string& content, std::string_view needle, std::size_t stop_after = 0) {
  TempDir tmp;
  fleet::test::write_file(tmp / "f", content);
  UniqueFd fd(::open((tmp / "f").c_str(), O_RDONLY | O_CLOEXEC));
  Seen seen;
  seen.stats =
      scan_lines_containing(fd.get(), 0, needle, [&](std::string_view line, std::uint64_t at) {
        seen.lines.emplace_back(line);
        seen.offsets.push_back(at);
        return stop_after == 0 || seen.lines.size() < stop_after;
      });
  return seen;
}

}  // namespace

TEST_CASE("line_scan: only complete lines containing the needle - with their offsets") {
  const Seen seen = scan("alpha\nbeta\ngamma alpha\nalpha-torn", "alpha");
  CHECK(seen.lines == std::vector<std::string>{"alpha", "gamma alpha"});
  CHECK(seen.offsets == std::vector<std::uint64_t>{0, 11});
  CHECK(seen.stats.incomplete_tail);
}

TEST_CASE("line_scan: an empty needle visits every complete line - blank ones included") {
  const Seen seen = scan("a\n\nb\n", "");
  CHECK(seen.lines == std::vector<std::string>{"a", "", "b"});
  CHECK_FALSE(seen.stats.incomplete_tail);
}

TEST_CASE("line_scan: a line is visited once even when the needle occurs twice in it") {
  CHECK(scan("x x x\ny\n", "x").lines.size() == 1);
}

TEST_CASE("line_scan: the visitor can stop the scan") {
  CHECK(scan("k1\nk2\nk3\n", "k", 2).lines == std::vector<std::string>{"k1", "k2"});
}

TEST_CASE("line_scan: lines across block boundaries and lines longer than a block") {
  std::string content;
  std::vector<std::string> expected;
  for (int i = 0; i < 40000; ++i) {
    std::string line = "line ";
    line.append(std::to_string(i)).append(static_cast<std::size_t>(i % 97), '.');
    if (i % 1000 == 7) line += " needle";
    if (i % 1000 == 7) expected.push_back(line);
    content += line + "\n";
  }
  std::string huge(3 << 20, 'h');  // 3 MiB in one line
  huge.append(" needle");
  content += huge + "\n";
  expected.push_back(huge);
  content += "after needle\n";
  expected.push_back("after needle");
  const Seen seen = scan(content, "needle");
  CHECK(seen.lines == expected);
  CHECK(seen.stats.end_offset == content.size());
  CHECK(seen.offsets.back() == content.size() - std::string("after needle\n").size());
}

TEST_CASE("line_scan: an empty file visits nothing") {
  const Seen seen = scan("", "x");
  CHECK(seen.lines.empty());
  CHECK_FALSE(seen.stats.incomplete_tail);
}

TEST_CASE("line_scan: scanning from an offset reports absolute offsets") {
  TempDir tmp;
  fleet::test::write_file(tmp / "f", "a1\nb2\na3\npartial");
  UniqueFd fd(::open((tmp / "f").c_str(), O_RDONLY | O_CLOEXEC));
  std::vector<std::uint64_t> offsets;
  const auto stats =
      scan_lines_containing(fd.get(), 3, "", [&](std::string_view, std::uint64_t at) {
        offsets.push_back(at);
        return true;
      });
  CHECK(offsets == std::vector<std::uint64_t>{3, 6});
  CHECK(stats.end_offset == 9);
  CHECK(stats.incomplete_tail);
}

TEST_CASE("line_scan: read_line_at returns only whole lines that start at the offset") {
  TempDir tmp;
  std::string long_line(10000, 'L');
  fleet::test::write_file(tmp / "f", "first\n" + long_line + "\nlast-no-newline");
  UniqueFd fd(::open((tmp / "f").c_str(), O_RDONLY | O_CLOEXEC));
  CHECK(read_line_at(fd.get(), 0).value() == "first");
  CHECK(read_line_at(fd.get(), 6).value() == long_line);
  CHECK_FALSE(read_line_at(fd.get(), 2));          // the middle of a line
  CHECK_FALSE(read_line_at(fd.get(), 6 + 10001));  // no '\n' after it yet
  CHECK_FALSE(read_line_at(fd.get(), 1 << 20));    // past the end
}

TEST_CASE("line_scan: lines holding the needle or the extra byte, in file order, each once") {
  TempDir tmp;
  fleet::test::write_file(tmp / "f", "a\\b\nplain\nneedle\nneedle \\ both\n\\\nx needle\ntail\\");
  UniqueFd fd(::open((tmp / "f").c_str(), O_RDONLY | O_CLOEXEC));
  std::vector<std::string> lines;
  scan_lines_containing(
      fd.get(), 0, "needle",
      [&](std::string_view line, std::uint64_t) {
        lines.emplace_back(line);
        return true;
      },
      '\\');
  CHECK(lines == std::vector<std::string>{"a\\b", "needle", "needle \\ both", "\\", "x needle"});
}
