#pragma once
// Passing a child's output stream through byte for byte as it arrives, while keeping a
// bounded tail of it for classifying failures.

#include <cstddef>
#include <functional>
#include <string>

#include "base/files.h"

namespace fleet {

class OutputRelay {
 public:
  // `source` is the read end of the child's pipe (made non-blocking here); `destination` is
  // where the bytes go (our stdout or stderr); the last `tail_limit` bytes are kept.
  OutputRelay(UniqueFd source, int destination, std::size_t tail_limit);

  // The descriptor to poll, -1 once the stream has ended.
  int fd() const { return source_.get(); }
  bool open() const { return static_cast<bool>(source_); }

  // Copies what is available now. The stream ends (fd() becomes -1) at end of file, or when
  // the destination is gone (EPIPE): closing our end then gives the child the EPIPE/SIGPIPE
  // it would have had without the wrapper.
  void pump();

  // pump() until nothing is available right now.
  void drain();

  // Closes our end of the pipe (the writers left behind get EPIPE).
  void close() { source_.reset(); }

  // From now on the bytes go to `destination` (e.g. a spool file once the launcher's end of
  // our stdout has closed), also when they were diverted. Bytes that could not be written
  // before are not replayed.
  void redirect(int destination) {
    destination_ = destination;
    sink_ = nullptr;
  }

  // From now on the bytes go to `sink` instead of the destination (e.g. a bounded spool that
  // keeps an attempt's stdout until the launch knows whether it is the final attempt).
  using Sink = std::function<void(const char* data, std::size_t size)>;
  void divert(Sink sink) { sink_ = std::move(sink); }

  // Every byte that comes through is shown to `observer` too, before it goes on (e.g. to
  // learn a session id the agent prints), wherever it goes.
  void observe(Sink observer) { observer_ = std::move(observer); }

  // Called when a write to the destination fails with EPIPE (its reader is gone): returns a
  // new destination to go on with, or -1 to end the stream (the default).
  void on_destination_gone(int (*replacement)(void* context), void* context) {
    replacement_ = replacement;
    replacement_context_ = context;
  }

  // The last `tail_limit` bytes that passed through.
  std::string tail() const;

 private:
  // Returns false when nothing was available or the stream ended.
  bool pump_once();
  void forward(const char* data, std::size_t size);

  UniqueFd source_;
  int destination_;
  Sink sink_;
  Sink observer_;
  int (*replacement_)(void*) = nullptr;
  void* replacement_context_ = nullptr;
  std::size_t tail_limit_;
  std::string tail_;
};

}  // namespace fleet
