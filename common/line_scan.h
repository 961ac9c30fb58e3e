#pragma once
// Finding lines in a JSON-lines file without parsing all of them: read in large blocks,
// memmem for a needle, hand only the complete lines that contain it to the caller.

#include <cstdint>
#include <functional>
#include <string_view>

namespace fleet {

struct LineScanStats {
  std::uint64_t bytes_read = 0;
  bool incomplete_tail = false;  // the file ended with a line that has no '\n' (skipped)
};

// Calls `visit(line, offset)` in file order for every complete ('\n'-terminated) line of
// the file open on `fd` that contains `needle` (every line when `needle` is empty), from the
// current file position, until `visit` returns false. `line` excludes the '\n'; `offset` is
// where the line starts. A final line without '\n' is never visited. Throws Error on read
// errors.
LineScanStats scan_lines_containing(
    int fd, std::string_view needle,
    const std::function<bool(std::string_view line, std::uint64_t offset)>& visit);

}  // namespace fleet
