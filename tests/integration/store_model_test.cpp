// Model-based test through the binaries: seeded random sequences of appends through
// provenance-writer, compactions through fleet-hooks, and what other programs do to the
// store (store_model.h). After every step resume-guard's decision, `fleet-hooks query`'s
// verdict and `fleet-hooks replay` must equal the decision a plain scan of the file gives.
// (The unit test provenance_store_model_test.cpp runs many more sequences in-process.)

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "fixtures.h"
#include "process.h"
#include "store_model.h"
#include "suite.h"
#include "temp_dir.h"

using fleet::test::kModelCallers;
using fleet::test::kModelKitchens;
using fleet::test::kModelSessions;
using fleet::test::pre_tool_use;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::store_text;
using fleet::test::TempDir;

namespace {

std::string guard_decision(const std::string& state, const std::string& caller,
                           const std::string& kitchen, const std::string& session) {
  return fleet::test::guard_decision(state, kitchen, pre_tool_use(caller, session));
}

std::string query_verdict(const std::string& state, const std::string& caller,
                          const std::string& kitchen, const std::string& session) {
  const RunResult r = run_process({FLEET_HOOKS_CLI, "query", "--session", session, "--as-caller",
                                   caller, "--kitchen-id", kitchen, "--state-dir", state});
  const std::string label = "verdict for caller '" + caller + "': ";
  const auto at = r.out.find(label);
  if (at == std::string::npos) return "no verdict: " + r.out + r.err;
  const std::string rest = r.out.substr(at + label.size());
  if (rest.starts_with("silent")) return "silent";
  return rest.substr(0, rest.find(':'));
}

}  // namespace

TEST_CASE("store model through the binaries: guard, query and replay decide as a scan") {
  const int kSequences = fleet::test::full_or_reduced(12, 4);
  constexpr int kSteps = 10;
  for (int seed = 1; seed <= kSequences; ++seed) {
    TempDir tmp;
    const std::string state = tmp / "state";
    const std::string store = state + "/session_provenance.jsonl";
    ::mkdir(state.c_str(), 0700);
    std::mt19937 random(static_cast<std::uint32_t>(1000 + seed));
    for (int step = 0; step < kSteps; ++step) {
      std::string operation;
      const auto choice = random() % 20;
      if (choice < 8) {
        const RunResult r =
            run_process({FLEET_PROVENANCE_WRITER, "record", "--session-id",
                         kModelSessions[random() % kModelSessions.size()], "--caller-session-id",
                         kModelCallers[random() % kModelCallers.size()], "--kitchen-id",
                         kModelKitchens[random() % kModelKitchens.size()], "--recipe-name",
                         random() % 8 == 0 ? "" : "implement", "--state-dir", state});
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        operation = "provenance-writer record";
      } else if (choice == 8) {
        REQUIRE(run_process({FLEET_HOOKS_CLI, "compact", "--state-dir", state}).exit_code == 0);
        operation = "fleet-hooks compact";
      } else {
        operation = fleet::test::foreign_operation(store, random);
      }
      const std::string text = store_text(store);
      std::string cases;
      for (int triple = 0; triple < 3; ++triple) {
        const std::string& session = kModelSessions[random() % kModelSessions.size()];
        const std::string& caller = kModelCallers[random() % kModelCallers.size()];
        const std::string& kitchen = kModelKitchens[random() % kModelKitchens.size()];
        const std::string expected = fleet::test::model_decision(text, caller, kitchen, session);
        const std::string guard = guard_decision(state, caller, kitchen, session);
        const std::string query = query_verdict(state, caller, kitchen, session);
        if (guard != expected || query != expected) {
          FAIL_CHECK("seed " << 1000 + seed << " step " << step << " (" << operation
                             << "): " << caller << " in " << kitchen << " resuming " << session
                             << ": guard " << guard << ", query " << query << ", scan " << expected
                             << "\nstore:\n"
                             << text);
        }
        cases += R"({"name":"case )" + std::to_string(triple) + R"(","input":)" +
                 pre_tool_use(caller, session) + R"(,"expect":")" + expected +
                 R"(","kitchen_id":")" + kitchen + "\"}\n";
      }
      fleet::test::write_file(tmp / "cases.jsonl", cases);
      const RunResult replay =
          run_process({FLEET_HOOKS_CLI, "replay", tmp / "cases.jsonl", "--state-dir", state});
      CHECK_MESSAGE(replay.exit_code == 0, "seed " << 1000 + seed << " step " << step << " ("
                                                   << operation << "): " << replay.out);
    }
  }
}
