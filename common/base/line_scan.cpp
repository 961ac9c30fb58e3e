#include "base/line_scan.h"

#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "base/error.h"

namespace fleet {
namespace {

constexpr std::size_t kBlockSize = 1 << 20;
constexpr std::size_t kLineChunk = 4096;

// The last '\n' of the `size` bytes at `begin`, nullptr when there is none (as memrchr, which
// macOS lacks, does). Every search here ends within a line of the newline it looks for.
const char* last_newline(const char* begin, std::size_t size) {
  for (const char* at = begin + size; at != begin;) {
    if (*--at == '\n') return at;
  }
  return nullptr;
}

std::size_t pread_some(int fd, char* buffer, std::size_t size, std::uint64_t offset) {
  for (;;) {
    const ssize_t n = ::pread(fd, buffer, size, static_cast<off_t>(offset));
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) throw_errno("cannot read the store");
  }
}

// Visits the lines of `region` (which ends in '\n') that contain `needle` or the byte
// `also` (when not 0). Returns false when `visit` asked to stop.
bool visit_region(const char* region, std::size_t size, std::uint64_t region_offset,
                  std::string_view needle, char also,
                  const std::function<bool(std::string_view, std::uint64_t)>& visit) {
  const char* const end = region + size;
  const char* cursor = region;
  // The next occurrence of each at or after `cursor` (end when there is none).
  const char* next_needle = region;
  const char* next_also = also != 0 ? region : end;
  while (cursor < end) {
    const char* line_start;
    if (needle.empty()) {
      line_start = cursor;
    } else {
      if (next_needle < cursor) next_needle = cursor;
      if (next_needle < end) {
        const void* hit = ::memmem(next_needle, static_cast<std::size_t>(end - next_needle),
                                   needle.data(), needle.size());
        next_needle = hit == nullptr ? end : static_cast<const char*>(hit);
      }
      if (also != 0 && next_also < end) {
        if (next_also < cursor) next_also = cursor;
        const void* hit = std::memchr(next_also, also, static_cast<std::size_t>(end - next_also));
        next_also = hit == nullptr ? end : static_cast<const char*>(hit);
      }
      const char* at = std::min(next_needle, next_also);
      if (at >= end) return true;
      const char* newline_before = last_newline(cursor, static_cast<std::size_t>(at - cursor));
      line_start = newline_before == nullptr ? cursor : newline_before + 1;
    }
    const char* line_end = static_cast<const char*>(
        std::memchr(line_start, '\n', static_cast<std::size_t>(end - line_start)));
    const std::string_view line(line_start, static_cast<std::size_t>(line_end - line_start));
    if (!visit(line, region_offset + static_cast<std::uint64_t>(line_start - region))) {
      return false;
    }
    cursor = line_end + 1;
  }
  return true;
}

}  // namespace

LineScanStats scan_lines_containing(
    int fd, std::uint64_t start, std::string_view needle,
    const std::function<bool(std::string_view line, std::uint64_t offset)>& visit, char also) {
  LineScanStats stats;
  stats.end_offset = start;
  // Uninitialised storage: zeroing a block the reads overwrite anyway costs page faults.
  std::size_t capacity = kBlockSize;
  auto buffer = std::make_unique_for_overwrite<char[]>(capacity);
  std::size_t filled = 0;
  std::uint64_t buffer_offset = start;
  for (;;) {
    if (filled == capacity) {  // a line longer than a block
      auto larger = std::make_unique_for_overwrite<char[]>(capacity * 2);
      std::memcpy(larger.get(), buffer.get(), filled);
      buffer = std::move(larger);
      capacity *= 2;
    }
    const std::size_t n =
        pread_some(fd, buffer.get() + filled, capacity - filled, buffer_offset + filled);
    if (n == 0) break;
    filled += n;

    const char* newline = last_newline(buffer.get(), filled);
    if (newline == nullptr) continue;
    const auto complete = static_cast<std::size_t>(newline - buffer.get()) + 1;
    stats.end_offset = buffer_offset + complete;
    if (!visit_region(buffer.get(), complete, buffer_offset, needle, also, visit)) return stats;
    std::memmove(buffer.get(), buffer.get() + complete, filled - complete);
    filled -= complete;
    buffer_offset += complete;
  }
  stats.incomplete_tail = filled > 0;
  return stats;
}

std::optional<std::string> read_line_at(int fd, std::uint64_t offset) {
  // Read from the byte before `offset` to check that a line starts there.
  const std::uint64_t from = offset == 0 ? 0 : offset - 1;
  std::string text;
  char chunk[kLineChunk];
  for (;;) {
    const std::size_t n = pread_some(fd, chunk, sizeof chunk, from + text.size());
    if (n == 0) return std::nullopt;  // end of file before a '\n'
    const std::size_t scanned = text.size();
    text.append(chunk, n);
    if (offset > 0 && scanned == 0 && text[0] != '\n') return std::nullopt;
    const std::size_t search_from = (offset > 0 && scanned == 0) ? 1 : scanned;
    const std::size_t newline = text.find('\n', search_from);
    if (newline != std::string::npos) {
      const std::size_t begin = offset > 0 ? 1 : 0;
      return text.substr(begin, newline - begin);
    }
  }
}

}  // namespace fleet
