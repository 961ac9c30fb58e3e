// Being woken when a file changes (platform/file_watch.h; platform seam, macOS home): kqueue
// EVFILT_VNODE on descriptors opened with O_EVTONLY (which keep no volume from unmounting).
// The watch follows the file opened (its vnode), not the path: a file replaced at the path is
// found by the caller (a new inode), which then forgets this one and watches the new one.
#include "platform/file_watch.h"

#include <fcntl.h>
#include <sys/event.h>
#include <sys/time.h>
#include <unistd.h>
#include <cerrno>

namespace fleet::platform {
namespace {

// Opens `path` for events only and adds it to `queue` with `notes`; the descriptor, or -1.
int open_watched(int queue, const std::string& path, int flags, unsigned notes) {
  const int fd = ::open(path.c_str(), O_EVTONLY | O_CLOEXEC | flags);
  if (fd < 0) return -1;
  struct kevent change {};
  EV_SET(&change, static_cast<uintptr_t>(fd), EVFILT_VNODE, EV_ADD | EV_CLEAR, notes, 0, nullptr);
  if (::kevent(queue, &change, 1, nullptr, 0, nullptr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

FileWatch::FileWatch(bool enabled) {
  if (!enabled) return;
  fd_.reset(::kqueue());
  if (fd_ && ::fcntl(fd_.get(), F_SETFD, FD_CLOEXEC) != 0) fd_.reset();
}

FileWatch::~FileWatch() {
  forget_file();
  if (directory_watch_ >= 0) ::close(directory_watch_);
}

void FileWatch::watch_directory(const std::string& directory) {
  if (!fd_ || directory_watch_ >= 0) return;
  // NOTE_WRITE on a directory: an entry was added, removed or renamed in it.
  directory_watch_ = open_watched(fd_.get(), directory, O_DIRECTORY, NOTE_WRITE);
}

bool FileWatch::watch_file(const std::string& path) {
  if (!fd_) return false;
  if (file_watch_ < 0) {
    file_watch_ = open_watched(fd_.get(), path, 0,
                               NOTE_WRITE | NOTE_EXTEND | NOTE_ATTRIB | NOTE_DELETE | NOTE_RENAME);
  }
  return file_watch_ >= 0;
}

void FileWatch::forget_file() {
  // Closing the descriptor removes its event from the queue.
  if (file_watch_ >= 0) ::close(file_watch_);
  file_watch_ = -1;
}

void FileWatch::drain() {
  if (!fd_) return;
  struct kevent events[16];
  const struct timespec now {};
  int n;
  do {
    n = ::kevent(fd_.get(), nullptr, 0, events, 16, &now);
  } while (n == 16 || (n < 0 && errno == EINTR));
}

}  // namespace fleet::platform
