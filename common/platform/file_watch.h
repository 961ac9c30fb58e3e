#pragma once
// Being woken when a file changes, or when a file appears in a directory (platform seam,
// README.md): one descriptor to poll for POLLIN, readable once something changed since the
// last drain(). Linux: inotify (IN_MODIFY and IN_CLOSE_WRITE on the file, IN_CREATE and
// IN_MOVED_TO on the directory); macOS: kqueue EVFILT_VNODE on descriptors opened with
// O_EVTONLY (NOTE_WRITE, NOTE_EXTEND, NOTE_DELETE, NOTE_RENAME on the file, NOTE_WRITE on the
// directory). Only a hint: the caller reads the file itself to learn what changed.

#include <string>

#include "base/files.h"

namespace fleet::platform {

class FileWatch {
 public:
  // No watch at all (fd() is -1) unless `enabled`, or when the system refuses one.
  explicit FileWatch(bool enabled);
  ~FileWatch();
  FileWatch(const FileWatch&) = delete;
  FileWatch& operator=(const FileWatch&) = delete;

  // The descriptor to poll; -1 when there is no watch (the caller polls on a timer).
  int fd() const { return fd_.get(); }
  explicit operator bool() const { return static_cast<bool>(fd_); }

  // Watches `directory` for files created or moved into it (once; later calls do nothing).
  void watch_directory(const std::string& directory);
  // Watches the file at `path` for writes (once, until forget_file()); false when it cannot
  // (no watch, or no such file yet).
  bool watch_file(const std::string& path);
  bool watching_file() const { return file_watch_ >= 0; }
  // Stops watching the file (it was replaced: the caller watches the new one).
  void forget_file();

  // Consumes what woke the descriptor.
  void drain();

 private:
  UniqueFd fd_;
  int directory_watch_ = -1;  // Linux: the watch descriptor; macOS: the opened directory
  int file_watch_ = -1;       // Linux: the watch descriptor; macOS: the opened file
};

}  // namespace fleet::platform
