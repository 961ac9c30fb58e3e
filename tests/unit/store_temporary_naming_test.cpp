// A user's own files beside the store survive the suite's cleanup of temporaries.
#include <doctest/doctest.h>
#include <unistd.h>

#include "store/provenance_store.h"
#include "store/store_compact.h"
#include "store/store_temporary.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_file;
using fleet::test::TempDir;
using fleet::test::write_file;

TEST_CASE(
    "store_temporary: a user's .old.240101 and .bak beside the store survive append and "
    "compaction") {
  TempDir tmp;
  const std::string store = tmp / "session_provenance.jsonl";
  const std::string old_copy = store + ".old.240101";
  const std::string backup = store + ".bak";
  const std::string idx_lookalike = store + ".idx.abcdef";  // the naming of earlier releases
  write_file(old_copy, "kept 1\n");
  write_file(backup, "kept 2\n");
  write_file(idx_lookalike, "kept 3\n");
  const ProvenanceRecord record{"w-1", "caller-1", "k", "d-1", "implement", "build", "t"};
  append_record(store, record, {});
  CHECK(read_file(old_copy) == "kept 1\n");
  CHECK(read_file(backup) == "kept 2\n");
  CHECK(read_file(idx_lookalike) == "kept 3\n");
  compact_store(store);
  CHECK(read_file(old_copy) == "kept 1\n");
  CHECK(read_file(backup) == "kept 2\n");
  CHECK(read_file(idx_lookalike) == "kept 3\n");
}

TEST_CASE("store_temporary: temporaries carry the .fleet-tmp- infix") {
  TempDir tmp;
  const std::string store = tmp / "session_provenance.jsonl";
  write_file(store, "");
  StoreTemporary created = create_store_temporary(store, "compact");
  const std::string path = created.path;
  UniqueFd& held = created.fd;
  CHECK(path.starts_with(store + ".fleet-tmp-compact."));
  CHECK(path.size() == store.size() + std::string(".fleet-tmp-compact.").size() + 6);
  held.reset();
  CHECK(remove_stale_temporaries(store) == 1);
  CHECK(::access(path.c_str(), F_OK) != 0);
}
