#include "store/provenance_index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/error.h"
#include "base/files.h"
#include "base/line_scan.h"
#include "process/process_identity.h"
#include "store/provenance_record.h"
#include "store/store_temporary.h"

namespace fleet {
namespace {

constexpr char kMagic[8] = {'F', 'H', 'P', 'I', 'D', 'X', '3', '\n'};
constexpr std::uint64_t kSettled = 1;
// Entries appended after the sorted section before the writer sorts the whole index again:
// a reader scans at most this many (64 KiB) besides its binary search.
constexpr std::uint64_t kMaxTail = 4096;
constexpr std::size_t kBootIdSize = 40;

struct Header {
  char magic[8];
  FileFingerprint store;
  std::uint64_t flags;
  std::uint64_t sorted;  // entries in the sorted section
  char boot_id[kBootIdSize];
};
static_assert(sizeof(FileFingerprint) == 64);
static_assert(sizeof(Header) == 128);

struct Entry {
  std::uint64_t key;
  std::uint64_t offset;
  bool operator<(const Entry& other) const {
    return key != other.key ? key < other.key : offset < other.offset;
  }
};
static_assert(sizeof(Entry) == 16);

const std::string& boot_id() {
  static const std::string id = current_boot_id().value_or("");  // "": unknown
  return id;
}

Header header_for(const FileFingerprint& store, bool settled, std::uint64_t sorted) {
  Header header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.store = store;
  // Without a boot id the index cannot show that the store was not changed across a crash.
  header.flags = settled && !boot_id().empty() ? kSettled : 0;
  header.sorted = sorted;
  std::memcpy(header.boot_id, boot_id().data(), std::min(boot_id().size(), kBootIdSize - 1));
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

// The header of the index open on `fd`; nullopt when it cannot be read or is not one.
std::optional<Header> read_header(int fd) {
  Header header{};
  if (!read_exact(fd, &header, sizeof header, 0) ||
      std::memcmp(header.magic, kMagic, sizeof kMagic) != 0) {
    return std::nullopt;
  }
  return header;
}

bool same_boot(const Header& header) {
  return !boot_id().empty() && boot_id().size() < kBootIdSize &&
         std::string_view(header.boot_id, ::strnlen(header.boot_id, kBootIdSize)) == boot_id();
}

// The header says the index covers exactly the store whose fingerprint is `store`, taken so
// that any later change shows (settled), in this boot.
bool describes(const Header& header, const FileFingerprint& store) {
  return (header.flags & kSettled) != 0 && header.store == store && same_boot(header);
}

void put_all(int fd, const void* data, std::size_t size, std::uint64_t offset,
             const std::string& path) {
  const auto* in = static_cast<const char*>(data);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t w = ::pwrite(fd, in + done, size - done, static_cast<off_t>(offset + done));
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) throw_errno("cannot write " + path);
    done += static_cast<std::size_t>(w);
  }
}

// The key of the record `line` holds, when it may hold one. Every record gets its own key;
// a line that is not a record may get one too (readers skip it). The common line — no
// backslash, "session_id" once — is read without parsing: without escapes a string cannot
// hold a quote, so that one "session_id" followed by ':' is the top-level key if the line is
// a record at all, and its value ends at the next quote. Anything else is parsed. nullopt:
// the line is not a record.
std::optional<std::uint64_t> key_of_line(std::string_view line) {
  static constexpr std::string_view kName = "\"session_id\"";
  const std::size_t at = line.find(kName);
  if (at != std::string_view::npos && line.find('\\') == std::string_view::npos &&
      line.find(kName, at + kName.size()) == std::string_view::npos) {
    std::size_t i = at + kName.size();
    const auto skip_space = [&] {
      while (i < line.size() &&
             (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n')) {
        ++i;
      }
    };
    skip_space();
    if (i < line.size() && line[i] == ':') {
      ++i;
      skip_space();
      if (i < line.size() && line[i] == '"') {
        const std::size_t end = line.find('"', i + 1);
        if (end != std::string_view::npos) return index_key(line.substr(i + 1, end - i - 1));
      }
    }
    return std::nullopt;  // "session_id" not followed by a string: not a record
  }
  const auto record = parse_provenance_line(line);
  if (!record) return std::nullopt;
  return index_key(record->session_id);
}

// An entry for every complete record line that starts at or after `from` and ends (with its
// '\n') at or before `to`.
std::vector<Entry> index_lines(int store_fd, std::uint64_t from, std::uint64_t to) {
  std::vector<Entry> entries;
  if (from >= to) return entries;
  scan_lines_containing(store_fd, from, "", [&](std::string_view line, std::uint64_t at) {
    if (at + line.size() + 1 > to) return false;
    if (const auto key = key_of_line(line)) entries.push_back({*key, at});
    return true;
  });
  return entries;
}

// Writes a whole new index (sorted) into a temporary file and renames it over `path`:
// readers see the old index or the new one, never a mix.
void write_index(const std::string& store_path, const FileFingerprint& store, bool settled,
                 std::vector<Entry>& entries) {
  std::sort(entries.begin(), entries.end());
  const Header header = header_for(store, settled, entries.size());
  const StoreTemporary created = create_store_temporary(store_path, "idx");
  const std::string& temporary = created.path;
  const UniqueFd& out = created.fd;
  try {
    put_all(out.get(), &header, sizeof header, 0, temporary);
    put_all(out.get(), entries.data(), entries.size() * sizeof(Entry), sizeof header, temporary);
    if (::rename(temporary.c_str(), index_path(store_path).c_str()) != 0) {
      throw_errno("cannot replace " + index_path(store_path));
    }
  } catch (const Error&) {
    ::unlink(temporary.c_str());
    throw;
  }
}

bool ends_a_line(int fd, std::uint64_t offset) {
  if (offset == 0) return true;
  char last = 0;
  return read_exact(fd, &last, 1, offset - 1) && last == '\n';
}

}  // namespace

std::uint64_t index_key(std::string_view session_id) {
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    key = (key << 8) | (i < session_id.size() ? static_cast<unsigned char>(session_id[i]) : 0u);
  }
  return key;
}

std::string index_path(const std::string& store_path) {
  return store_path + ".idx";
}

void update_index(const std::string& store_path, int store_fd, const FileFingerprint* before,
                  std::uint64_t appended_bytes) {
  // The fingerprint first, the content after: whatever changes the store once this fstat
  // is done gives it another fingerprint.
  const std::optional<TakenFingerprint> taken = take_settled_fingerprint(store_fd);
  if (!taken) throw_errno("cannot stat " + store_path);
  const FileFingerprint& now = taken->print;
  const bool changed = taken->changed_while_waiting;
  bool settled = taken->settled;

  const std::string path = index_path(store_path);
  std::optional<UniqueFd> opened = open_regular_file_if_exists(path, O_RDWR);
  UniqueFd index = opened ? std::move(*opened) : UniqueFd();

  // The index can only be extended when it described the store as it was before the append.
  const std::optional<Header> read =
      !changed && index && before != nullptr ? read_header(index.get()) : std::nullopt;
  const Header header = read.value_or(Header{});
  struct stat index_stat {};
  const bool extend = read && header.store == *before && same_boot(header) &&
                      ::fstat(index.get(), &index_stat) == 0 && now.dev == before->dev &&
                      now.ino == before->ino && now.size == before->size + appended_bytes &&
                      ends_a_line(store_fd, before->size);
  const std::uint64_t count =
      extend ? (static_cast<std::uint64_t>(index_stat.st_size) - sizeof(Header)) / sizeof(Entry)
             : 0;
  if (!extend || header.sorted > count) {
    std::vector<Entry> entries = index_lines(store_fd, 0, now.size);
    write_index(store_path, now, settled, entries);
    return;
  }
  settled = settled && (header.flags & kSettled) != 0;
  std::vector<Entry> added = index_lines(store_fd, before->size, now.size);
  if (count - header.sorted + added.size() > kMaxTail) {
    std::vector<Entry> entries(count);
    if (count > 0 &&
        !read_exact(index.get(), entries.data(), count * sizeof(Entry), sizeof(Header))) {
      throw Error("cannot read " + path);
    }
    entries.insert(entries.end(), added.begin(), added.end());
    write_index(store_path, now, settled, entries);
    return;
  }
  const std::uint64_t entries_end = sizeof(Header) + count * sizeof(Entry);
  if (static_cast<std::uint64_t>(index_stat.st_size) > entries_end &&
      ::ftruncate(index.get(), static_cast<off_t>(entries_end)) != 0) {
    throw_errno("cannot truncate " + path);  // drop a torn entry
  }
  // Entries before the header: a reader that sees the new header finds them all.
  put_all(index.get(), added.data(), added.size() * sizeof(Entry), entries_end, path);
  const Header updated = header_for(now, settled, header.sorted);
  put_all(index.get(), &updated, sizeof updated, 0, path);
}

namespace {

// The index's entries, read kBlock at a time (4 KiB, one pread each): memory stays bounded
// however many entries a range holds.
class EntryBlocks {
 public:
  static constexpr std::uint64_t kBlock = 256;

  explicit EntryBlocks(int fd) : fd_(fd) {}

  // Reads the `size` entries from entry `at` on; false when the index cannot be read.
  bool read(std::uint64_t at, std::uint64_t size) {
    block_.resize(size);
    start_ = at;
    return read_exact(fd_, block_.data(), size * sizeof(Entry),
                      sizeof(Header) + at * sizeof(Entry));
  }
  // Entry `i` of those before `end`, reading its block when it is not the one read; nullptr
  // when the index cannot be read.
  const Entry* at(std::uint64_t i, std::uint64_t end) {
    if (i < start_ || i >= start_ + block_.size()) {
      if (!read(i, std::min(kBlock, end - i))) return nullptr;
    }
    return &block_[i - start_];
  }
  const std::vector<Entry>& block() const { return block_; }

 private:
  int fd_;
  std::vector<Entry> block_;  // the entries [start_, start_ + block_.size())
  std::uint64_t start_ = 0;
};

// The first entry of the sorted section [0, sorted) whose key is >= low, found by halving the
// range with blocks, ten reads at 100,000 records instead of seventeen of one entry;
// nullopt when the index cannot be read. Invariant: entries before `first` have keys < low,
// entries from `last` on have keys >= low.
std::optional<std::uint64_t> first_key_at_least(EntryBlocks& blocks, std::uint64_t sorted,
                                                std::uint64_t low) {
  constexpr std::uint64_t kBlock = EntryBlocks::kBlock;
  std::uint64_t first = 0;
  std::uint64_t last = sorted;
  while (first < last) {
    const std::uint64_t span = last - first;
    const std::uint64_t at = span <= kBlock ? first : first + (span - kBlock) / 2;
    if (!blocks.read(at, std::min(kBlock, span))) return std::nullopt;
    const std::vector<Entry>& block = blocks.block();
    if (block.back().key < low) {
      first = at + block.size();
    } else if (block.front().key >= low && at > first) {
      last = at;
    } else {  // the first key >= low is in this block
      const auto it =
          std::lower_bound(block.begin(), block.end(), low,
                           [](const Entry& e, std::uint64_t key) { return e.key < key; });
      return at + static_cast<std::uint64_t>(it - block.begin());
    }
  }
  return first;
}

}  // namespace

bool visit_index_candidates(const std::string& store_path, const FileFingerprint& store,
                            std::string_view id, const CandidateVisitor& visit) {
  OpenedFile opened = try_open_regular_file(index_path(store_path), O_RDONLY);
  if (opened.status != FileStatus::ok) return false;
  const UniqueFd index = std::move(opened.fd);
  const std::optional<Header> read = read_header(index.get());
  struct stat index_stat {};
  if (!read || !describes(*read, store) || ::fstat(index.get(), &index_stat) != 0 ||
      static_cast<std::uint64_t>(index_stat.st_size) < sizeof(Header)) {
    return false;
  }
  const Header& header = *read;
  const std::uint64_t count =
      (static_cast<std::uint64_t>(index_stat.st_size) - sizeof(Header)) / sizeof(Entry);
  if (header.sorted > count) return false;

  // Every key of a session id that starts with `id`; the exact id's key is the lowest.
  const std::uint64_t low = index_key(id);
  const std::uint64_t high = id.size() >= 8 ? low
                             : id.empty()   ? ~std::uint64_t{0}
                                          : low | ((std::uint64_t{1} << (8 * (8 - id.size()))) - 1);
  CandidateNeed need = CandidateNeed::all;
  const auto wanted_up_to = [&] { return need == CandidateNeed::exact_key ? low : high; };
  // Offers one entry; false once the visitor needs no entry with a key this high.
  const auto offer = [&](const Entry& entry) {
    if (entry.key > wanted_up_to()) return false;
    if (entry.key >= low && entry.offset < store.size) need = visit(entry.offset);
    return need != CandidateNeed::nothing;
  };

  EntryBlocks blocks(index.get());
  const std::optional<std::uint64_t> first = first_key_at_least(blocks, header.sorted, low);
  if (!first) return false;
  // The run of keys from there, while the visitor wants them.
  for (std::uint64_t i = *first; i < header.sorted; ++i) {
    const Entry* entry = blocks.at(i, header.sorted);
    if (entry == nullptr) return false;
    if (!offer(*entry)) break;
  }
  // The tail, in store order: its keys are in no order, so every entry is looked at.
  for (std::uint64_t i = header.sorted; i < count && need != CandidateNeed::nothing; ++i) {
    const Entry* entry = blocks.at(i, count);
    if (entry == nullptr) return false;
    offer(*entry);
  }
  return true;
}

IndexCandidates index_candidates(const std::string& store_path, const FileFingerprint& store,
                                 std::string_view id) {
  IndexCandidates result;
  result.usable = visit_index_candidates(store_path, store, id, [&](std::uint64_t offset) {
    result.offsets.push_back(offset);
    return CandidateNeed::all;
  });
  if (!result.usable) return {};
  std::sort(result.offsets.begin(), result.offsets.end());
  return result;
}

}  // namespace fleet
