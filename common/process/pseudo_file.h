#pragma once
// The small reads and writes of /proc and cgroupfs files (and of any file read or written in
// one go): nothing here throws.

#include <optional>
#include <string>

namespace fleet {

// The whole content of a /proc or cgroupfs file; nullopt when it cannot be read.
std::optional<std::string> read_pseudo_file(const std::string& path);

// Writes `text` in one write(2); nullopt when written, else what failed ("cannot write
// <path>: <strerror>").
std::optional<std::string> write_pseudo_file(const std::string& path, const std::string& text);

}  // namespace fleet
