#pragma once
// Test support: what launch-wrapper tells its caller — the FLEET_PID lines on stdout and the
// JSON summary that is the last line on stderr — and the pid files the tests' agent scripts
// write.

#include <rapidjson/document.h>

#include <string>
#include <vector>

namespace fleet::test {

// The pids of the FLEET_PID:<pid> lines in `out`, in order.
std::vector<int> announced_pids(const std::string& out);

// The summary: the last line of `err`, REQUIREd to be a JSON object.
rapidjson::Document wrapper_summary(const std::string& err);

// The first line of the file at `path` once it holds a complete line (a script writes it in
// the background); "" after `timeout_ms`.
std::string read_pid_file(const std::string& path, int timeout_ms = 20000);

}  // namespace fleet::test
