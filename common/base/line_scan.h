#pragma once
// Reading a JSON-lines file by lines without parsing all of them: read in large blocks,
// memmem for a needle, hand only the complete lines that contain it to the caller; and
// reading the one line that starts at a known offset.
// Failing: a read error throws Error; a line that is not there (yet) is a std::optional.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace fleet {

struct LineScanStats {
  std::uint64_t end_offset = 0;  // just past the last complete line seen
  bool incomplete_tail = false;  // the file ended with a line that has no '\n' (skipped)
};

// Calls `visit(line, offset)` in file order for every complete ('\n'-terminated) line of
// the file open on `fd` that starts at or after `start` (which must be a line start) and
// contains `needle` (every line when `needle` is empty) or, when `also` is not 0, the byte
// `also`, until `visit` returns false.
// `line` excludes the '\n'; `offset` is where the line starts. A final line without '\n'
// is never visited. Uses pread: the descriptor's file position is not used or moved.
// Throws Error on read errors.
LineScanStats scan_lines_containing(
    int fd, std::uint64_t start, std::string_view needle,
    const std::function<bool(std::string_view line, std::uint64_t offset)>& visit, char also = 0);

// The complete line starting exactly at `offset` (without its '\n'), or nullopt when
// `offset` is not the start of a line or the line has no '\n' yet. Throws Error on read
// errors.
std::optional<std::string> read_line_at(int fd, std::uint64_t offset);

}  // namespace fleet
