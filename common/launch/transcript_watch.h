#pragma once
// Watching a Claude Code transcript for the completion marker without being fooled by a
// resumed session: only bytes appended after the resume boundary are read, only complete
// lines, only matching records (completion_marker.h). inotify on the file and its directory
// wakes the reader; without inotify (or before the directory exists) it polls. Like tail -F,
// a transcript replaced or recreated during the run (a new inode) is read from its start:
// the boundary applies only to the file that existed when it was taken.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/files.h"
#include "launch/completion_marker.h"

namespace fleet {

// $CLAUDE_CONFIG_DIR (else $HOME/.claude) /projects/<claude_project_folder(cwd)>/
// <session_id>.jsonl (claude_project_folder.h)
std::string transcript_path(const std::string& session_id, const std::string& cwd);

class TranscriptWatch {
 public:
  TranscriptWatch(std::string path, MarkerRule rule, std::chrono::milliseconds poll_interval,
                  bool use_inotify);

  // Takes the resume boundary: the file's size now (0 when it does not exist yet). Call it
  // before the agent is released.
  void mark_boundary();
  std::uint64_t boundary() const { return boundary_; }

  // The inotify descriptor to poll (-1 when polling only).
  int fd() const { return inotify_.get(); }

  // How long the caller may wait before calling check() again: -1 when inotify covers the
  // file, else the poll interval.
  int wait_ms() const;

  // Reads what was appended since the last call (draining inotify events). True once a
  // complete matching record appeared after the boundary; stays true.
  bool check();

 private:
  void arm();
  // Reopens the path from byte 0 when it names another file than the one open.
  bool follow_replacement();
  void read_new_lines();

  std::string path_;
  std::string directory_;
  MarkerRule rule_;
  std::chrono::milliseconds poll_interval_;
  UniqueFd inotify_;
  int directory_watch_ = -1;
  int file_watch_ = -1;
  UniqueFd file_;
  std::uint64_t boundary_ = 0;
  std::uint64_t offset_ = 0;
  std::string partial_;
  bool seen_ = false;
};

}  // namespace fleet
