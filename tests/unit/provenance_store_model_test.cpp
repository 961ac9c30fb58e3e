// Model-based test of the provenance store's readers: hundreds of seeded random sequences of
// appends through the library (indexed), compactions, and what other programs do to the file
// (store_model.h). After every step the guard's decision for every (caller, kitchen, session)
// must be the one a plain scan of the file gives. A failure names its seed and step.

#include <doctest/doctest.h>

#include "guard/resume_guard.h"
#include "store/provenance_store.h"
#include "store/store_compact.h"
#include "store_model.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::kModelCallers;
using fleet::test::kModelKitchens;
using fleet::test::kModelSessions;
using fleet::test::store_text;
using fleet::test::TempDir;

TEST_CASE("provenance store model: every reader decides as a scan of the file, whatever happens") {
  constexpr int kSequences = 150;
  constexpr int kSteps = 20;
  int indexed_answers = 0;
  for (int seed = 1; seed <= kSequences; ++seed) {
    TempDir tmp;
    const std::string store = tmp / "session_provenance.jsonl";
    std::mt19937 random(static_cast<std::uint32_t>(seed));
    for (int step = 0; step < kSteps; ++step) {
      std::string operation;
      const auto choice = random() % 20;
      if (choice < 8) {
        const ProvenanceRecord record{kModelSessions[random() % kModelSessions.size()],
                                      kModelCallers[random() % kModelCallers.size()],
                                      kModelKitchens[random() % kModelKitchens.size()],
                                      "d-1",
                                      random() % 8 == 0 ? "" : "implement",
                                      "build",
                                      "2026-11-22T00:00:00.000000+00:00"};
        append_record(store, record, {});
        operation = "append through the suite";
      } else if (choice == 8) {
        compact_store(store);
        operation = "compaction";
      } else {
        operation = fleet::test::foreign_operation(store, random);
      }
      const std::string text = store_text(store);
      for (const auto& session : kModelSessions) {
        const auto found = lookup_session(store, session);
        if (found.used_index) ++indexed_answers;
        for (int triple = 0; triple < 2; ++triple) {
          const std::string& caller = kModelCallers[random() % kModelCallers.size()];
          const std::string& kitchen = kModelKitchens[random() % kModelKitchens.size()];
          GuardOptions options;
          options.state_dir = tmp.path();
          options.kitchen_id = kitchen;
          const std::string expected = fleet::test::model_decision(text, caller, kitchen, session);
          const std::string decided =
              to_string(decide_resume(resume_request(caller, session), options).verdict);
          if (decided != expected) {
            FAIL_CHECK("seed " << seed << " step " << step << " (" << operation << "): " << caller
                               << " in " << kitchen << " resuming " << session << ": guard "
                               << decided << ", scan " << expected << "\nstore:\n"
                               << text);
          }
        }
      }
    }
  }
  // The index answered a good share of the lookups (it is not simply never used).
  MESSAGE(indexed_answers << " lookups answered through the index");
  CHECK(indexed_answers > kSequences * kSteps / 2);
}
