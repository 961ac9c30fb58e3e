#pragma once
// Test support for the model-based tests of the provenance store: what other programs do to
// the store file (appends without the lock, rewrites in place, truncation, files copied or
// renamed over it, delete and recreate, torn tails), driven by a seeded random generator, and
// the guard's decision computed from a plain scan of the file's text — the model every reader
// must agree with.

#include <random>
#include <string>
#include <vector>

namespace fleet::test {

// Small pools so that operations collide: every session id has the same length, and so does
// every caller id and kitchen id (a rewrite in place can swap one for another).
extern const std::vector<std::string> kModelSessions;
extern const std::vector<std::string> kModelCallers;
extern const std::vector<std::string> kModelKitchens;

// The text of the store at `path`; "" when there is no file.
std::string store_text(const std::string& path);

// A store line as AutoSkillit's writer formats it (json.dumps, sort_keys); the recipe is
// empty (an L3) one time in eight.
std::string model_line(std::mt19937& random);

// Does one thing another program might do to the store at `path` (which may not exist);
// returns its name.
std::string foreign_operation(const std::string& path, std::mt19937& random);

// The guard's decision for `caller` in `kitchen` resuming `session`, from the first complete
// record of the session in `store_text`: "deny", "silent" or "advisory" (no record).
std::string model_decision(const std::string& store_text, const std::string& caller,
                           const std::string& kitchen, const std::string& session);

}  // namespace fleet::test
