#pragma once
// Watching an agent's session file (transcript) for the completion marker without being
// fooled by a resumed session: only bytes appended after the resume boundary are read, only
// complete lines, only matching records (completion_marker.h). A watch on the file and its
// directory (platform/file_watch.h: inotify on Linux, kqueue on macOS) wakes the reader;
// without one (or before the file is found, or its directory exists) it polls. A file whose name
// the agent chooses when it starts (Codex, Gemini) is looked for at every check until it is found,
// and read from its start. Like tail -F, a transcript replaced or recreated during the run (a new
// inode) is read from its start: the boundary applies only to the file that existed when it was
// taken.

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/files.h"
#include "launch/completion_marker.h"
#include "launch/completion_watch.h"
#include "platform/file_watch.h"

namespace fleet {

// The session file's path, "" while it is not found (its AgentProfile::session_file).
using SessionFileLocator = std::function<std::string()>;

class TranscriptWatch final : public CompletionWatch {
 public:
  TranscriptWatch(SessionFileLocator locate, MarkerRule rule,
                  std::chrono::milliseconds poll_interval, bool use_inotify);
  // The file at `path`, named in advance.
  TranscriptWatch(std::string path, MarkerRule rule, std::chrono::milliseconds poll_interval,
                  bool use_inotify);

  // Takes the resume boundary: the file's size now (0 when it does not exist or is not found
  // yet). Call it before the agent is released.
  void mark_boundary();
  std::uint64_t boundary() const { return boundary_; }
  // The session resumed is found only later (Codex's `resume --last`, known once its id is
  // printed): the file found after mark_boundary() is read from its size when found, not
  // from its start. Then check() as soon as the file can be found.
  void resumes_unnamed_session() { resumes_unnamed_ = true; }
  // Receives, once, why the session file found cannot be watched: it is compressed
  // (agent/agent_profile.h: kCompressedSuffix). The watch then looks on for a plain one.
  void on_unreadable(std::function<void(const std::string&)> say) { say_ = std::move(say); }

  // The file watch's descriptor to poll (-1 when polling only).
  int fd() const override { return watch_.fd(); }

  // The path watched, "" while it is not found.
  const std::string& path() const { return path_; }
  // How long the caller may wait before calling check() again: -1 when the file watch covers
  // the file, else the poll interval.
  int wait_ms() const override;

  // Reads what was appended since the last call (draining the file watch). True once a
  // complete matching record appeared after the boundary; stays true.
  bool check() override;

 private:
  void arm();
  // Looks for the file while its path is not known; true once it is.
  bool locate();
  // Reopens the path from byte 0 when it names another file than the one open.
  bool follow_replacement();
  // Opens the located file and takes its size as the boundary.
  void open_at_end();
  void read_new_lines();

  SessionFileLocator locate_;
  std::string path_;
  std::string directory_;
  MarkerRule rule_;
  std::chrono::milliseconds poll_interval_;
  platform::FileWatch watch_;
  UniqueFd file_;
  std::uint64_t boundary_ = 0;
  std::uint64_t offset_ = 0;
  std::string partial_;
  bool seen_ = false;
  bool resumes_unnamed_ = false;
  std::function<void(const std::string&)> say_;
  bool unreadable_said_ = false;
};

}  // namespace fleet
