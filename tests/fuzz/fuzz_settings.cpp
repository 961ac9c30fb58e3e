// Fuzz target: installing and uninstalling the suite's hooks in arbitrary settings JSON, read
// the way `fleet-hooks install` reads a settings file (load_settings: invalid files and
// duplicate keys are refused). Installing twice gives the same text; uninstalling leaves no
// suite entry behind.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "agents/agents.h"
#include "base/error.h"
#include "base/json.h"
#include "settings/hook_wiring.h"
#include "settings/settings_file.h"

namespace {

char g_dir[] = "/tmp/fuzz_settings.XXXXXX";

// One settings file, rewritten for each input, removed at exit.
const std::string& settings_path() {
  static const std::string path = [] {
    if (::mkdtemp(g_dir) == nullptr) std::abort();
    std::atexit([] {
      ::unlink((std::string(g_dir) + "/settings.json").c_str());
      ::rmdir(g_dir);
    });
    return std::string(g_dir) + "/settings.json";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::FILE* file = std::fopen(settings_path().c_str(), "wb");
  if (file == nullptr || std::fwrite(data, 1, size, file) != size || std::fclose(file) != 0) {
    std::abort();
  }
  rapidjson::Document doc;
  try {
    fleet::load_settings(settings_path(), doc, fleet::claude_code());
  } catch (const fleet::Error&) {
    return 0;  // invalid, ignored by Claude Code, or with duplicate keys: refused
  }
  if (!doc.IsObject()) return 0;
  try {
    fleet::install_suite_hooks(
        doc, fleet::WiringOptions{"/opt/fleet hooks/bin", {}, false, &fleet::claude_code()});
  } catch (const fleet::Error&) {
    return 0;  // a settings file of the wrong shape is refused
  }
  std::string once;
  try {
    once = fleet::settings_text(doc);
  } catch (const fleet::Error&) {
    return 0;  // text that cannot be written back as UTF-8 is refused, not written
  }
  auto reread = fleet::parse_json(once);
  if (!reread) std::abort();  // what is written reads back
  rapidjson::Document& again = *reread;
  try {
    fleet::install_suite_hooks(
        again, fleet::WiringOptions{"", {"spawn_worker"}, false, &fleet::claude_code()});
  } catch (const fleet::Error&) {
    return 0;  // a user's own matcher that does not select spawn_worker is refused
  }
  // Byte equality is not required here: RapidJSON 1.1 may round a number beyond double
  // precision differently on each write. The suite's entries must not multiply, though: the
  // user's own suite entries are updated in place, and two are added only where none was.
  rapidjson::Document third;
  third.CopyFrom(again, third.GetAllocator());
  const int entries = fleet::uninstall_suite_hooks(third, fleet::claude_code());
  if (entries < 2) std::abort();
  try {
    fleet::install_suite_hooks(
        again, fleet::WiringOptions{"", {"spawn_worker"}, false, &fleet::claude_code()});
  } catch (const fleet::Error&) {
    std::abort();  // what install wrote, it installs into again
  }
  if (fleet::uninstall_suite_hooks(again, fleet::claude_code()) != entries) std::abort();
  if (fleet::uninstall_suite_hooks(again, fleet::claude_code()) != 0) std::abort();
  return 0;
}
