#include "store_model.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rapidjson/document.h>

#include "fixtures.h"
#include "temp_dir.h"

namespace fleet::test {

const std::vector<std::string> kModelSessions = {
    "0d07e5d0-0000-4000-8000-000000000001", "0d07e5d0-0000-4000-8000-000000000002",
    "1e07e5d0-0000-4000-8000-000000000003", "2f07e5d0-0000-4000-8000-000000000004"};
const std::vector<std::string> kModelCallers = {"c0ffee00-0000-4000-8000-00000000000a",
                                                "c0ffee00-0000-4000-8000-00000000000b",
                                                "c0ffee00-0000-4000-8000-00000000000c"};
const std::vector<std::string> kModelKitchens = {"kitchen-1", "kitchen-2", "kitchen-3"};

namespace {

template <typename T>
const T& pick(const std::vector<T>& pool, std::mt19937& random) {
  return pool[random() % pool.size()];
}

// Writes `content` over the file at `path` through the same inode (open, truncate, write),
// as `cp` and an editor saving in place do.
void overwrite_in_place(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return;
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

void append_raw(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return;
  if (::write(fd, text.data(), text.size()) < 0) {
    // The model reads the file back; a failed write is just another state.
  }
  ::close(fd);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line;
  return text;
}

// Same length, other owner: swap one id of a line for another of its pool.
std::string rewritten_same_size(std::string text, std::mt19937& random) {
  for (const auto* pool : {&kModelSessions, &kModelCallers, &kModelKitchens}) {
    if (random() % 2 == 0) continue;
    const std::string& from = pick(*pool, random);
    const auto at = text.find(from, random() % (text.size() + 1));
    const auto found = at != std::string::npos ? at : text.find(from);
    if (found != std::string::npos) text.replace(found, from.size(), pick(*pool, random));
  }
  return text;
}

}  // namespace

std::string store_text(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? read_file(path) : "";
}

std::string model_line(std::mt19937& random) {
  // Drawn in the order the fields are written (the seeds' sequences depend on it).
  const std::string caller = pick(kModelCallers, random);
  const std::string kitchen = pick(kModelKitchens, random);
  const std::string recipe = random() % 8 == 0 ? "" : "implement";
  const std::string session = pick(kModelSessions, random);
  return autoskillit_line(record(session, caller, kitchen, recipe)) + "\n";
}

std::string foreign_operation(const std::string& path, std::mt19937& random) {
  const std::string text = store_text(path);
  switch (random() % 10) {
    case 0:
    case 1:
      append_raw(path, model_line(random));
      return "foreign append";
    case 2:
      if (text.empty()) return "nothing";
      overwrite_in_place(path, rewritten_same_size(text, random));
      return "rewrite in place, same size";
    case 3: {
      auto lines = lines_of(text);
      if (lines.empty()) return "nothing";
      lines.erase(lines.begin() + static_cast<long>(random() % lines.size()));
      lines.insert(lines.begin() + static_cast<long>(random() % (lines.size() + 1)),
                   model_line(random));
      overwrite_in_place(path, joined(lines));
      return "rewrite in place";
    }
    case 4: {
      const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd < 0) return "nothing";
      if (::ftruncate(fd, static_cast<off_t>(random() % (text.size() + 1))) != 0) {
        // Another state the readers must agree on, or the same one.
      }
      ::close(fd);
      if (random() % 2 == 0) append_raw(path, model_line(random));
      return "truncate";
    }
    case 5:
      overwrite_in_place(path, model_line(random) + text);
      return "copy over (same inode)";
    case 6: {
      const std::string other = path + ".other";
      write_file(other, rewritten_same_size(text, random));
      ::rename(other.c_str(), path.c_str());
      return "rename over";
    }
    case 7:
      ::unlink(path.c_str());
      overwrite_in_place(path, rewritten_same_size(text, random));
      return "delete and recreate";
    case 8: {
      const std::string line = model_line(random);
      append_raw(path, line.substr(0, random() % (line.size() - 1)));
      return "torn tail";
    }
    default:
      ::unlink(path.c_str());
      return "delete";
  }
}

std::string model_decision(const std::string& store_text, const std::string& caller,
                           const std::string& kitchen, const std::string& session) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = store_text.find('\n', start);
    if (end == std::string::npos) return "advisory";  // complete lines only
    rapidjson::Document doc;
    doc.Parse(store_text.data() + start, end - start);
    start = end + 1;
    if (doc.HasParseError() || !doc.IsObject()) continue;
    const auto field = [&doc](const char* name) {
      const auto it = doc.FindMember(name);
      return it != doc.MemberEnd() && it->value.IsString()
                 ? std::string(it->value.GetString(), it->value.GetStringLength())
                 : std::string();
    };
    if (field("session_id") != session) continue;
    if (field("recipe_name").empty()) return "deny";
    if (field("caller_session_id") == caller || field("kitchen_id") == kitchen) return "silent";
    return "deny";
  }
}

}  // namespace fleet::test
