#pragma once
// File primitives every writer in the suite shares: an owned descriptor, safe opening
// (O_NOFOLLOW, O_CLOEXEC, regular files only), whole writes and private directories.
// Failing: the plain functions throw Error; a missing file is an expected outcome, so the
// `_if_exists` forms return std::optional (nullopt: no such file) and the `try_` forms, for
// the guard's path and callers that branch on every outcome, return a small result struct
// and never throw.

#include <sys/types.h>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fleet {

// Owns a file descriptor; closes it on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();

  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  int release();
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

// How a try_open_regular_file or try_read_regular_file came out.
enum class FileStatus {
  ok,
  missing,  // no file at the path
  failed    // anything else: `problem` says what (as open_regular_file would throw it)
};

struct OpenedFile {
  FileStatus status = FileStatus::ok;
  UniqueFd fd;          // open when ok
  std::string problem;  // when not ok: "cannot open <path>: …", "<path> is a symbolic link…"
};

struct ReadFile {
  FileStatus status = FileStatus::ok;
  std::string content;  // when ok
  std::string problem;  // when not ok (a file larger than allowed is `failed`)
};

// open(2) with O_NOFOLLOW | O_CLOEXEC added; refuses symlinks and anything that is not a
// regular file (a FIFO at the path cannot make it hang). Throws Error naming the path and
// what to do.
UniqueFd open_regular_file(const std::string& path, int flags, mode_t mode = 0600);

// The same; nullopt when there is no file at `path`. Throws Error for everything else.
std::optional<UniqueFd> open_regular_file_if_exists(const std::string& path, int flags,
                                                    mode_t mode = 0600);

// The same without exceptions (they are slow to raise in a static binary, and a missing
// file is an expected outcome on the guard's path).
OpenedFile try_open_regular_file(const std::string& path, int flags, mode_t mode = 0600);

// Writes all of `data`, looping on short writes and EINTR. Throws Error on failure.
void write_all(int fd, std::string_view data, const std::string& what);

// The whole content of the regular file at `path` (O_NOFOLLOW), at most `max_bytes`; a
// larger file is an error. Throws Error.
std::string read_regular_file(const std::string& path, std::size_t max_bytes);

// The same; nullopt when there is no file at `path`. Throws Error for everything else.
std::optional<std::string> read_regular_file_if_exists(const std::string& path,
                                                       std::size_t max_bytes);

// The same without exceptions.
ReadFile try_read_regular_file(const std::string& path, std::size_t max_bytes);

enum class Durability {
  survives_crash,   // fsync the file before the rename and the directory after it
  process_lifetime  // no fsync: for state that means nothing after a reboot (pids)
};

// Replaces the file at `path` with `content` so that a reader sees the old or the new file,
// never a mix: a temporary file (mode `mode`) in the same directory renamed over `path` (with
// `survives_crash`, also across a power loss). Refuses when `path` is a symlink or not a
// regular file. With `owner`, the new file gets that owner and group (refused, nothing
// replaced, when that is not permitted). Throws Error.
struct FileOwner {
  uid_t uid;
  gid_t gid;
};
void replace_file_atomically(const std::string& path, std::string_view content,
                             Durability durability = Durability::survives_crash, mode_t mode = 0600,
                             const FileOwner* owner = nullptr);

// flock(LOCK_EX) on `fd`, retrying on EINTR. Throws Error naming `what`.
void lock_exclusive(int fd, const std::string& what);

// Opens (creating, 0600) the lock file at `path` and takes flock(LOCK_EX) on it, waiting as
// long as another process holds it. The lock is released when the descriptor is closed.
// Throws Error.
UniqueFd lock_file(const std::string& path);

// mkdir -p: every directory it creates gets mode 0700. Throws Error on failure.
void ensure_directory(const std::string& path);

// The names in `directory`, newest name first (dated names sort by date); none when it cannot
// be read.
std::vector<std::string> names_newest_first(const std::string& directory);

// The directory part of `path` ("." when there is none).
std::string parent_directory(const std::string& path);

// Removes `dir`, then each directory above it up to `top` (not `top` itself; `dir` alone when
// `top` does not hold it), for as long as each is empty. Never throws.
void remove_empty_directories(const std::string& dir, const std::string& top);

}  // namespace fleet
