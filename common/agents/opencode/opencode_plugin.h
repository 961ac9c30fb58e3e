#pragma once
// The suite's OpenCode plugin (plugin/opencode/fleet-hooks-guard.js, doc/opencode.md), its
// bytes embedded into the suite at build time (opencode_plugin.cpp.in), so that every install
// route carries it: `fleet-hooks install --agent opencode` writes exactly these bytes, and
// `check` compares the file with them.
// Failing: nothing fails.

#include <string_view>

namespace fleet {

std::string_view opencode_plugin_contents();

}  // namespace fleet
