#include "launch/transcript_watch.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>

#include "agent/agent_profile.h"

namespace fleet {

TranscriptWatch::TranscriptWatch(SessionFileLocator locate, MarkerRule rule,
                                 std::chrono::milliseconds poll_interval, bool use_inotify)
    : locate_(std::move(locate)),
      rule_(std::move(rule)),
      poll_interval_(poll_interval),
      watch_(use_inotify) {}

TranscriptWatch::TranscriptWatch(std::string path, MarkerRule rule,
                                 std::chrono::milliseconds poll_interval, bool use_inotify)
    : TranscriptWatch([path] { return path; }, std::move(rule), poll_interval, use_inotify) {}

bool TranscriptWatch::locate() {
  if (!path_.empty()) return true;
  path_ = locate_();
  if (path_.ends_with(kCompressedSuffix)) {
    if (!unreadable_said_ && say_) {
      say_("the completion watch cannot read " + path_ +
           ": the session file is compressed (zstd), which launch-wrapper does not "
           "decompress, so the completion marker cannot end the agent (it runs until it exits)");
    }
    unreadable_said_ = true;
    path_.clear();
  }
  if (path_.empty()) return false;
  directory_ = parent_directory(path_);
  return true;
}

void TranscriptWatch::mark_boundary() {
  // The boundary belongs to the file that exists now: it is opened here, so a file that
  // replaces it later is recognised as another one (read from its start).
  file_.reset();
  boundary_ = 0;
  offset_ = 0;
  partial_.clear();
  if (!locate()) return;
  open_at_end();
}

void TranscriptWatch::open_at_end() {
  file_ = std::move(try_open_regular_file(path_, O_RDONLY).fd);
  if (file_) {
    struct stat st {};
    if (::fstat(file_.get(), &st) == 0) boundary_ = static_cast<std::uint64_t>(st.st_size);
  }
  offset_ = boundary_;
  partial_.clear();
  arm();
}

bool TranscriptWatch::follow_replacement() {
  if (!file_) return false;
  struct stat at_path {
  }, open_file{};
  if (::stat(path_.c_str(), &at_path) != 0 || ::fstat(file_.get(), &open_file) != 0) return false;
  if (at_path.st_ino == open_file.st_ino && at_path.st_dev == open_file.st_dev) return false;
  // Replaced or recreated (a new inode), like tail -F: the new file is read from byte 0.
  file_.reset();
  offset_ = 0;
  partial_.clear();
  watch_.forget_file();
  arm();
  return true;
}

int TranscriptWatch::wait_ms() const {
  if (watch_.watching_file() && !path_.empty()) return -1;
  return static_cast<int>(poll_interval_.count());
}

void TranscriptWatch::arm() {
  if (!watch_ || path_.empty()) return;
  watch_.watch_directory(directory_);
  watch_.watch_file(path_);
}

bool TranscriptWatch::check() {
  watch_.drain();
  if (seen_) return true;
  const bool found_before = !path_.empty();
  if (!locate()) return false;
  if (!found_before && resumes_unnamed_) open_at_end();
  arm();
  read_new_lines();
  return seen_;
}

void TranscriptWatch::read_new_lines() {
  follow_replacement();
  if (!file_) {
    file_ = std::move(try_open_regular_file(path_, O_RDONLY).fd);
    if (!file_) return;
  }
  struct stat st {};
  if (::fstat(file_.get(), &st) != 0) return;
  if (static_cast<std::uint64_t>(st.st_size) < offset_) {  // truncated: start over
    offset_ = 0;
    partial_.clear();
  }
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::pread(file_.get(), buffer, sizeof buffer, static_cast<off_t>(offset_));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    offset_ += static_cast<std::uint64_t>(n);
    partial_.append(buffer, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (std::size_t newline; (newline = partial_.find('\n', start)) != std::string::npos;
         start = newline + 1) {
      if (!seen_ &&
          record_has_marker(std::string_view(partial_).substr(start, newline - start), rule_)) {
        seen_ = true;
      }
    }
    partial_.erase(0, start);  // keep the incomplete last line for the next read
  }
}

}  // namespace fleet
