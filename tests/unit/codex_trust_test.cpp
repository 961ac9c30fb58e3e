#include "agents/codex/codex_trust.h"

#include <doctest/doctest.h>

#include <string>

#include "base/json.h"
#include "base/sha256.h"

using namespace fleet;

namespace {

// The hash of the only entry of the only group in `group_json`, for `event`.
std::string hash_of(const char* event, const std::string& group_json) {
  const Result<rapidjson::Document> group = parse_json_object(group_json);
  REQUIRE(group.ok());
  const auto hash = codex_hook_hash(event, *group, (*group)["hooks"][0]);
  REQUIRE(hash.has_value());
  return *hash;
}

}  // namespace

// The expected digests are those of coreutils sha256sum.
TEST_CASE("sha256: digests as sha256sum prints them") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000, 'a')) ==
        "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST_CASE("codex_trust: event labels and trust keys as Codex writes them") {
  CHECK(codex_event_label("PreToolUse") == "pre_tool_use");
  CHECK(codex_event_label("PostToolUse") == "post_tool_use");
  CHECK(codex_event_label("SessionStart") == "session_start");
  CHECK(codex_hook_key("/repo/.codex/hooks.json", "PreToolUse", 0, 1) ==
        "/repo/.codex/hooks.json:pre_tool_use:0:1");
}

// The expected values are the currentHash that `codex app-server` (codex-cli 0.169.0) answered
// in hooks/list for these entries (doc/agents.md, "Trust").
TEST_CASE("codex_trust: the hash is the one codex-cli 0.169.0 reports") {
  CHECK(hash_of("PreToolUse",
                R"({"matcher":"^(mcp__.*__)?dispatch_food_truck$","hooks":[{"type":"command",)"
                R"("command":"resume-guard --agent codex","timeout":10}]})") ==
        "sha256:03540b86d08c9f3dc3979c5cd67de206bd8565b4718df20916889aedece5aec2");
  // No matcher, a timeout of 0 (counted as 1), async and a status message.
  CHECK(hash_of("PostToolUse", R"({"hooks":[{"type":"command","command":"x y","timeout":0,)"
                               R"("async":false,"statusMessage":"hey"}]})") ==
        "sha256:e95b7db48648034e654f8de64e2708d5d902c219ad0e4f5da88e71d0e667a894");
  // No timeout: 600 s.
  CHECK(hash_of("SessionStart",
                R"({"matcher":"startup","hooks":[{"type":"command","command":"echo hi"}]})") ==
        "sha256:96fce91e330a75049046e8e6e6ee74528be2d90871e21bafdff0b41859318628");
  // Control characters: Codex hashes serde_json's \u001b (lower case), DEL and non-ASCII as
  // they are (observed: statusMessage "a" ESC "b" DEL "é" on codex-cli 0.169.0).
  CHECK(hash_of("PreToolUse", R"({"matcher":"x","hooks":[{"type":"command","command":"echo hi",)"
                              R"("statusMessage":"a\u001bb\u007f\u00e9"}]})") ==
        "sha256:6332fabd7cbb7895987737b9dff4f553adeb20efb970a405c3cf4c95bb0546f3");
}

TEST_CASE("codex_trust: any change to the hook changes its hash - key order does not") {
  const std::string base = hash_of(
      "PreToolUse", R"({"matcher":"^a$","hooks":[{"type":"command","command":"g","timeout":10}]})");
  CHECK(hash_of("PreToolUse", R"({"hooks":[{"timeout":10,"command":"g","type":"command"}],)"
                              R"("matcher":"^a$"})") == base);
  CHECK(hash_of("PreToolUse", R"({"matcher":"^a$","hooks":[{"type":"command","command":"g2",)"
                              R"("timeout":10}]})") != base);
  CHECK(hash_of("PreToolUse", R"({"matcher":"^b$","hooks":[{"type":"command","command":"g",)"
                              R"("timeout":10}]})") != base);
  CHECK(hash_of("PreToolUse", R"({"matcher":"^a$","hooks":[{"type":"command","command":"g",)"
                              R"("timeout":11}]})") != base);
  CHECK(hash_of("PostToolUse", R"({"matcher":"^a$","hooks":[{"type":"command","command":"g",)"
                               R"("timeout":10}]})") != base);
  // A timeout Codex cannot read as whole seconds: it cannot read the file at all.
  const Result<rapidjson::Document> group =
      parse_json_object(R"({"hooks":[{"type":"command","command":"g","timeout":2.5}]})");
  REQUIRE(group.ok());
  CHECK_FALSE(codex_hook_hash("PreToolUse", *group, (*group)["hooks"][0]).has_value());
}
