#pragma once
// Test support: a private temporary directory removed with everything in it.

#include <string>
#include <vector>

namespace fleet::test {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& content);
std::vector<std::string> split_lines(const std::string& text);  // '\n'-terminated lines only
std::vector<std::string> run_ls(const std::string& directory);  // sorted entry names
// Writes `content` to `path` with mode 0755; returns `path`.
std::string write_executable(const std::string& path, const std::string& content);
// An executable /bin/sh script running `body`; returns `path`.
std::string write_script(const std::string& path, const std::string& body);

// An environment variable set for the lifetime of the object (restored afterwards).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value);  // nullptr value: unset
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  bool had_value_ = false;
  std::string old_value_;
};

}  // namespace fleet::test
