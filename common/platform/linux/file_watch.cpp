// Being woken when a file changes (platform/file_watch.h; platform seam, Linux home): inotify.
#include "platform/file_watch.h"

#include <sys/inotify.h>
#include <unistd.h>

namespace fleet::platform {

FileWatch::FileWatch(bool enabled) {
  if (enabled) fd_.reset(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
}

FileWatch::~FileWatch() = default;

void FileWatch::watch_directory(const std::string& directory) {
  if (!fd_ || directory_watch_ >= 0) return;
  directory_watch_ =
      ::inotify_add_watch(fd_.get(), directory.c_str(), IN_CREATE | IN_MOVED_TO | IN_ONLYDIR);
}

bool FileWatch::watch_file(const std::string& path) {
  if (!fd_) return false;
  if (file_watch_ < 0) {
    file_watch_ = ::inotify_add_watch(fd_.get(), path.c_str(), IN_MODIFY | IN_CLOSE_WRITE);
  }
  return file_watch_ >= 0;
}

void FileWatch::forget_file() {
  if (fd_ && file_watch_ >= 0) ::inotify_rm_watch(fd_.get(), file_watch_);
  file_watch_ = -1;
}

void FileWatch::drain() {
  if (!fd_) return;
  char events[4096];
  while (::read(fd_.get(), events, sizeof events) > 0) {
  }
}

}  // namespace fleet::platform
