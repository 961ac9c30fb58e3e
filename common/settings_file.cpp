#include "settings_file.h"

#include <sys/stat.h>
#include <cerrno>

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "error.h"
#include "files.h"
#include "json.h"
#include "paths.h"

namespace fleet {
namespace {

constexpr std::size_t kMaxSettingsBytes = 16 * 1024 * 1024;

}  // namespace

std::string settings_path(SettingsScope scope, const std::string& project_dir) {
  switch (scope) {
    case SettingsScope::project:
      return project_dir + "/.claude/settings.json";
    case SettingsScope::local:
      return project_dir + "/.claude/settings.local.json";
    case SettingsScope::user:
      break;
  }
  const std::string home = env_value("HOME");
  if (home.empty()) throw Error("HOME is not set; cannot locate the user settings file");
  return home + "/.claude/settings.json";
}

void load_settings(const std::string& path, rapidjson::Document& doc) {
  std::string text;
  std::string error;
  if (const int code = try_read_regular_file(path, kMaxSettingsBytes, text, error)) {
    if (code != ENOENT) throw Error(error, code);
    text.clear();
  }
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    doc.SetObject();
    return;
  }
  if (!parse_json(text, doc, &error)) {
    throw Error(path + " is not valid JSON (" + error + "); fix it first, nothing was changed");
  }
  if (!doc.IsObject()) {
    throw Error(path + " holds a JSON " + json_type_name(doc) +
                ", not an object; fix it first, nothing was changed");
  }
}

std::string settings_text(const rapidjson::Value& doc) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(buffer);
  writer.SetIndent(' ', 2);
  doc.Accept(writer);
  std::string text(buffer.GetString(), buffer.GetSize());
  // A \uDxxx escape without its pair reads as bytes that are not UTF-8; written back, the
  // file could not be read again.
  if (valid_utf8(text) != text) {
    throw Error(
        "the settings hold a string that is not valid Unicode (a lone \\uD800-\\uDFFF "
        "escape); fix it first, nothing was changed");
  }
  return text + "\n";
}

void write_settings(const std::string& path, const std::string& text) {
  // A new settings file gets the usual 0644 (it is often committed); an existing one keeps
  // its mode.
  mode_t mode = 0644;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode) && (st.st_mode & 0222) == 0) {
      throw Error(path +
                  " is read-only; make it writable (chmod u+w) to let fleet-hooks change it");
    }
    if (S_ISREG(st.st_mode)) {
      mode = st.st_mode & 07777;
      replace_file_atomically(path + ".bak", read_regular_file(path, kMaxSettingsBytes),
                              Durability::survives_crash, mode);
    }
  }
  replace_file_atomically(path, text, Durability::survives_crash, mode);
}

}  // namespace fleet
