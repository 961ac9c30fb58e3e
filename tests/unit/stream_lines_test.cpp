#include "base/stream_lines.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace fleet;

namespace {

// Every line `lines` hands over from `data` fed in pieces of `piece` bytes.
std::vector<std::string> lines_of(StreamLines& lines, const std::string& data, std::size_t piece) {
  std::vector<std::string> seen;
  for (std::size_t at = 0; at < data.size(); at += piece) {
    lines.feed(std::string_view(data).substr(at, piece), [&](std::string_view line) {
      seen.emplace_back(line);
      return true;
    });
  }
  return seen;
}

}  // namespace

TEST_CASE("stream_lines: complete lines in order, whatever the pieces") {
  const std::string data = "one\n\ntwo three\nfour";
  for (const std::size_t piece : {std::size_t{1}, std::size_t{4}, data.size()}) {
    CAPTURE(piece);
    StreamLines lines(100);
    CHECK(lines_of(lines, data, piece) == std::vector<std::string>{"one", "", "two three"});
    // The unfinished line waits for its newline.
    CHECK(lines_of(lines, "\n", 1) == std::vector<std::string>{"four"});
  }
}

TEST_CASE("stream_lines: a line past the limit is handed over empty, the next one whole") {
  StreamLines lines(8);
  CHECK(lines_of(lines, "0123456789abcdef\nshort\n", 3) == std::vector<std::string>{"", "short"});
}

TEST_CASE("stream_lines: the rest of a piece is dropped once the reader has had enough") {
  StreamLines lines(100);
  std::vector<std::string> seen;
  lines.feed("a\nb\nc\n", [&](std::string_view line) {
    seen.emplace_back(line);
    return line != "b";
  });
  CHECK(seen == std::vector<std::string>{"a", "b"});
}
