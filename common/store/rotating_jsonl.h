#pragma once
// A bounded JSON-lines log: appended with the store's locked-append protocol
// (store/jsonl_append.h), and rotated under that lock to `<path>.1` (replacing the previous
// one) once it reaches its limit, so at most about twice the limit is ever kept; and read
// back, or followed as it grows, across rotations (doc/files.md, guard_log.jsonl).
// Failing: appending throws Error (the line is then not in the file, or, when only the
// rotation failed, in a file past its limit); reading never throws: a file that cannot be
// read is read as absent.

#include <csignal>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "base/files.h"

namespace fleet {

// `path` + ".1": where a rotation moves the file.
std::string rotated_path(const std::string& path);

// Appends `line` plus '\n' to `path` as append_jsonl does (created 0600; its directory must
// exist or is created 0700); then, still holding the lock, when the file has reached
// `limit_bytes`, renames it to rotated_path(path). A writer waiting for the lock on the
// renamed file finds it no longer at `path` and reopens, so concurrent writers lose no line.
// `line` must not contain '\n'. Throws Error.
void append_rotating_jsonl(const std::string& path, std::string_view line,
                           std::uint64_t limit_bytes);

// Reads a rotating JSON-lines file from its oldest line on: the rotated file's lines, then
// the current file's, then (on later calls) what was appended since, also across a rotation
// (the lines the old file got before it was renamed are read from the descriptor still
// open). Lines of a file rotated twice between two calls are missed.
class RotatingJsonlTail {
 public:
  using OnLine = std::function<void(std::string_view line)>;
  explicit RotatingJsonlTail(std::string path) : path_(std::move(path)) {}

  // Calls `on_line` for each complete line not yet read (without its '\n'); the last line of
  // a file that was rotated away is passed even when unterminated (a torn tail).
  void read_new(const OnLine& on_line);
  // Whether either file existed at some call of read_new.
  bool found() const { return found_; }

  // Calls read_new every `interval_ms` until `stop` is set (by a signal handler): follows
  // the file as it grows. A signal interrupts the wait.
  void follow(const OnLine& on_line, const volatile std::sig_atomic_t& stop, int interval_ms);

 private:
  void drain(const OnLine& on_line);
  void finish_file(const OnLine& on_line);
  bool replaced() const;

  std::string path_;
  UniqueFd fd_;
  std::string partial_;
  bool started_ = false;
  bool found_ = false;
};

}  // namespace fleet
