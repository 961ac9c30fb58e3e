// Fuzz target: resume-guard's whole decision on arbitrary hook input, against a small store,
// read and answered in each agent CLI's dialect.
#include <unistd.h>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "agent/agent_cli.h"
#include "agents/agents.h"
#include "base/paths.h"
#include "guard/resume_guard.h"
#include "store/provenance_store.h"

namespace {

const std::string& state_dir() {
  static const std::string dir = [] {
    char path[] = "/tmp/fleet-fuzz-guard-XXXXXX";
    if (::mkdtemp(path) == nullptr) std::abort();
    const std::string store = fleet::provenance_store_path(path);
    fleet::append_record(
        store,
        {"0d07e5d0-0000-4000-8000-000000000001", "c0ffee00-0000-4000-8000-000000000001",
         "kitchen-1", "d-1", "implement", "build", "t"},
        {});
    fleet::append_record(
        store, {"0d07e5d0-0000-4000-8000-000000000002", "beef", "k2", "", "", "", "t"}, {});
    fleet::append_record(store, {"w-1", "l3", "k1", "", "r", "", "t"}, {});
    return std::string(path);
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fleet::GuardOptions options;
  options.state_dir = state_dir();
  options.kitchen_id = "kitchen-1";
  options.strict = size % 2 == 0;
  const auto agents = fleet::agent_clis();
  options.agent = agents[(size / 2) % agents.size()];
  const fleet::BoundedRead input{std::string(reinterpret_cast<const char*>(data), size), false,
                                 std::nullopt};
  const fleet::GuardDecision decision = fleet::decide_resume(
      fleet::read_resume_request(fleet::HookInput(input, *options.agent), options.tools), options);
  const std::optional<std::string> out = decision.output(*options.agent);
  // The guard never allows: it denies, advises or says nothing.
  if (out && out->find("\"allow\"") != std::string::npos) std::abort();
  if ((decision.verdict == fleet::Verdict::silent) == out.has_value()) std::abort();
  return 0;
}
