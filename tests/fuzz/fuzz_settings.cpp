// Fuzz target: installing and uninstalling the suite's hooks in arbitrary settings JSON.
// Installing twice gives the same text; uninstalling leaves no suite entry behind.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "error.h"
#include "hook_wiring.h"
#include "json.h"
#include "settings_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rapidjson::Document doc;
  if (!fleet::parse_json(std::string_view(reinterpret_cast<const char*>(data), size), doc) ||
      !doc.IsObject()) {
    return 0;
  }
  try {
    fleet::install_suite_hooks(doc, "/opt/fleet hooks/bin");
  } catch (const fleet::Error&) {
    return 0;  // a settings file of the wrong shape is refused
  }
  const std::string once = fleet::settings_text(doc);
  rapidjson::Document again;
  if (!fleet::parse_json(once, again)) std::abort();
  fleet::install_suite_hooks(again, "/opt/fleet hooks/bin");
  if (fleet::settings_text(again) != once) std::abort();
  fleet::uninstall_suite_hooks(again);
  if (fleet::uninstall_suite_hooks(again) != 0) std::abort();
  return 0;
}
