// `fleet-hooks query --session`'s verdict line, computed by the library (guard/resume_verdict.h).

#include <doctest/doctest.h>

#include "base/paths.h"
#include "guard/resume_verdict.h"
#include "store/provenance_store.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::ScopedEnv;
using fleet::test::TempDir;

TEST_CASE("store_query: the verdict line names the guard's verdict as the guard does") {
  TempDir tmp;
  append_record(provenance_store_path(tmp.path()), {"w-1", "l3-a", "k1", "", "implement", "", "t"},
                {});
  const ScopedEnv kitchen("FLEET_HOOKS_KITCHEN_ID", nullptr);
  const ScopedEnv campaign("AUTOSKILLIT_CAMPAIGN_ID", nullptr);
  CHECK(query_verdict({tmp.path(), "w-1", "l3-a", "", false}) ==
        "verdict for caller 'l3-a': silent\n");
  CHECK(query_verdict({tmp.path(), "w-1", "l3-a", "", true}) ==
        R"({"verdict":"silent","caller":"l3-a","session":"w-1","reason":""})"
        "\n");
  const std::string stranger = query_verdict({tmp.path(), "w-1", "l3-x", "", false});
  CHECK(stranger.starts_with("verdict for caller 'l3-x': deny: Refused to resume session 'w-1'"));
  CHECK(query_verdict({tmp.path(), "w-1", "", "", false})
            .starts_with("verdict for no caller: deny: Refused to resume session 'w-1'"));
  CHECK(query_verdict({tmp.path(), "w-1", "l3-x", "k1", false}) ==
        "verdict for caller 'l3-x': silent\n");  // the same kitchen
  CHECK(query_verdict({tmp.path(), "w-9", "l3-x", "", true})
            .starts_with(R"({"verdict":"advisory","caller":"l3-x","session":"w-9","reason":)"));
}
