#include "hook/session_start_hook.h"

#include <exception>

#include "base/paths.h"
#include "store/pending_launch.h"

namespace fleet {

std::optional<std::string> run_session_start_hook(const BoundedRead& input,
                                                  const SessionStartHookOptions& options) {
  const std::string pending = env_value(kPendingLaunchEnv);
  if (pending.empty()) return std::nullopt;  // not a session a launcher left to this hook
  const std::string prefix = "provenance-writer session-start: ";
  const std::string unrecorded =
      "; the session is not recorded yet (its launcher records it "
      "once it learns the id, and warns)";
  if (input.error) return prefix + "cannot read stdin: " + *input.error + unrecorded;
  if (input.truncated) return prefix + "hook input is too large" + unrecorded;
  try {
    const HookInput hook(input.text, *options.agent);
    if (!hook.valid()) return prefix + hook.error() + unrecorded;
    const std::string_view event = hook.hook_event_name();
    if (!event.empty() && event != options.agent->session_start_event) return std::nullopt;
    if (hook.session_id().empty()) return prefix + "the hook input has no session_id" + unrecorded;
    claim_pending_launch(pending, hook.session_id(), options.append);
    return std::nullopt;
  } catch (const std::exception& e) {
    return prefix + e.what() + unrecorded;
  }
}

}  // namespace fleet
