#pragma once
// What `fleet-hooks install --trust` added to an agent CLI's trust record (Codex's
// config.toml, GitHub Copilot CLI's config.json), remembered so that `fleet-hooks uninstall`
// takes back exactly that and never a trust the user gave: a project's trust that was there
// before the install is not the suite's. Kept per user in
// ~/.local/state/fleet-hooks/trust-written.json, a JSON object
//   {"written": [{"record": "<trust record>", "project": "<project path>", "created": <bool>}]}
// ("created": the trust record did not exist before install wrote it); the file goes when it
// holds nothing, and so do the directories below $HOME that this leaves empty.
// Failing: reading never throws (a missing or unreadable file remembers nothing); noting and
// forgetting throw Error.

#include <optional>
#include <string>

namespace fleet {

// Where the suite remembers the trust it wrote; nullopt without an absolute $HOME.
std::optional<std::string> trust_written_path();

struct WrittenTrust {
  bool created = false;  // install created the trust record itself
};

// Remembers that install --trust added the trust of `project` to `record`. Throws Error.
void note_trust_written(const std::string& record, const std::string& project, bool created);

// What install --trust added for `project` to `record`; nullopt when it added nothing there
// (the project was trusted before, by the user).
std::optional<WrittenTrust> trust_written(const std::string& record, const std::string& project);

// Forgets what install --trust added for `project` to `record`. Throws Error.
void forget_trust_written(const std::string& record, const std::string& project);

}  // namespace fleet
