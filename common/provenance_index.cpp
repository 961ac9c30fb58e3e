#include "provenance_index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <memory>

#include "error.h"
#include "files.h"
#include "line_scan.h"
#include "provenance_record.h"

namespace fleet {
namespace {

constexpr char kMagic[8] = {'F', 'H', 'P', 'I', 'D', 'X', '1', '\n'};

struct Header {
  char magic[8];
  std::uint64_t dev;
  std::uint64_t ino;
  std::uint64_t reserved;
};
static_assert(sizeof(Header) == 32);

struct Entry {
  std::uint64_t key;
  std::uint64_t offset;
};
static_assert(sizeof(Entry) == 16);

constexpr std::size_t kEntriesPerRead = 65536;  // 1 MiB of entries

Header header_for(const struct stat& store) {
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.dev = static_cast<std::uint64_t>(store.st_dev);
  header.ino = static_cast<std::uint64_t>(store.st_ino);
  return header;
}

bool read_exact(int fd, void* buffer, std::size_t size, std::uint64_t offset) {
  auto* out = static_cast<char*>(buffer);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool header_matches(int index_fd, const struct stat& store) {
  Header found{};
  const Header expected = header_for(store);
  return read_exact(index_fd, &found, sizeof found, 0) &&
         std::memcmp(found.magic, expected.magic, sizeof kMagic) == 0 &&
         found.dev == expected.dev && found.ino == expected.ino;
}

// Where the line `entry` points at ends (just past its '\n'), when that line is a record
// whose key is entry.key; 0 when the entry does not match the store.
std::uint64_t verified_line_end(int store_fd, const Entry& entry) {
  const auto line = read_line_at(store_fd, entry.offset);
  if (!line) return 0;
  const auto record = parse_provenance_line(*line);
  if (!record || index_key(record->session_id) != entry.key) return 0;
  return entry.offset + line->size() + 1;
}

void put_all(int fd, const void* data, std::size_t size, std::uint64_t offset,
             const std::string& path) {
  const auto* in = static_cast<const char*>(data);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pwrite(fd, in + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw_errno("cannot write " + path);
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::uint64_t index_key(std::string_view session_id) {
  std::uint64_t key = 0;
  std::memcpy(&key, session_id.data(), std::min<std::size_t>(session_id.size(), sizeof key));
  return key;
}

std::string index_path(const std::string& store_path) {
  return store_path + ".idx";
}

void update_index(const std::string& store_path, int store_fd) {
  const std::string path = index_path(store_path);
  struct stat store {};
  if (::fstat(store_fd, &store) != 0) throw_errno("cannot stat " + store_path);
  UniqueFd index = open_regular_file(path, O_RDWR | O_CREAT, 0600);
  struct stat index_stat {};
  if (::fstat(index.get(), &index_stat) != 0) throw_errno("cannot stat " + path);

  const auto size = static_cast<std::uint64_t>(index_stat.st_size);
  std::uint64_t entries = size >= sizeof(Header) ? (size - sizeof(Header)) / sizeof(Entry) : 0;
  std::uint64_t covered_end = 0;
  bool rebuild = size < sizeof(Header) || !header_matches(index.get(), store);
  if (!rebuild && entries > 0) {
    Entry last{};
    const std::uint64_t at = sizeof(Header) + (entries - 1) * sizeof(Entry);
    covered_end =
        read_exact(index.get(), &last, sizeof last, at) ? verified_line_end(store_fd, last) : 0;
    rebuild = covered_end == 0;
  }
  if (rebuild) {
    entries = 0;
    covered_end = 0;
    const Header header = header_for(store);
    if (::ftruncate(index.get(), 0) != 0) throw_errno("cannot truncate " + path);
    put_all(index.get(), &header, sizeof header, 0, path);
  }
  const std::uint64_t entries_end = sizeof(Header) + entries * sizeof(Entry);
  if (size > entries_end && !rebuild &&
      ::ftruncate(index.get(), static_cast<off_t>(entries_end)) != 0) {
    throw_errno("cannot truncate " + path);  // drop a torn entry
  }

  std::vector<Entry> added;
  scan_lines_containing(store_fd, covered_end, "", [&](std::string_view line, std::uint64_t at) {
    if (const auto record = parse_provenance_line(line)) {
      added.push_back({index_key(record->session_id), at});
    }
    return true;
  });
  if (!added.empty()) {
    put_all(index.get(), added.data(), added.size() * sizeof(Entry), entries_end, path);
  }
}

IndexCandidates index_candidates(const std::string& store_path, int store_fd,
                                 std::uint64_t store_size, std::string_view id) {
  IndexCandidates result;
  try {
    UniqueFd index;
    std::string error;
    if (try_open_regular_file(index_path(store_path), O_RDONLY, 0, index, error) != 0) {
      return result;
    }
    struct stat store {};
    if (::fstat(store_fd, &store) != 0 || !header_matches(index.get(), store)) return result;

    const std::uint64_t key = index_key(id);
    const std::uint64_t mask =
        id.size() >= sizeof key ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * id.size())) - 1;
    auto entries = std::make_unique_for_overwrite<Entry[]>(kEntriesPerRead);
    Entry last{};
    bool any = false;
    bool past_snapshot = false;
    for (std::uint64_t at = sizeof(Header); !past_snapshot;) {
      const ssize_t n = ::pread(index.get(), entries.get(), kEntriesPerRead * sizeof(Entry),
                                static_cast<off_t>(at));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return result;
      const std::size_t count = static_cast<std::size_t>(n) / sizeof(Entry);
      if (count == 0) break;
      for (std::size_t i = 0; i < count && !past_snapshot; ++i) {
        const Entry& entry = entries[i];
        // Entries for lines appended after the caller looked at the store are not used.
        past_snapshot = entry.offset >= store_size;
        if (past_snapshot) break;
        if ((entry.key & mask) == key) result.offsets.push_back(entry.offset);
        last = entry;
        any = true;
      }
      at += count * sizeof(Entry);
    }
    if (any) {
      result.covered_end = verified_line_end(store_fd, last);
      if (result.covered_end == 0) return {};
    }
    result.usable = true;
  } catch (const std::exception&) {
    return {};
  }
  return result;
}

}  // namespace fleet
