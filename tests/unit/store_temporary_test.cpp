#include "store/store_temporary.h"

#include <doctest/doctest.h>
#include <unistd.h>
#include <algorithm>

#include "temp_dir.h"

using namespace fleet;
using fleet::test::run_ls;
using fleet::test::TempDir;
using fleet::test::write_file;

TEST_CASE("store_temporary: a temporary its writer holds is kept, a dead writer's is removed") {
  TempDir tmp;
  const std::string store = tmp / "session_provenance.jsonl";
  write_file(store, "");
  StoreTemporary created = create_store_temporary(store, "compact");
  const std::string held_path = created.path;
  UniqueFd held = std::move(created.fd);
  CHECK(held_path.starts_with(store + ".fleet-tmp-compact."));
  // Left by writers that died: nobody holds them.
  write_file(store + ".fleet-tmp-compact.Ab12Cd", "partial");
  write_file(store + ".fleet-tmp-idx.Zz99yy", "partial");
  // Not temporaries of this store.
  write_file(store + ".idx", "index");
  write_file(store + ".fleet-tmp-compact.toolongsuffix", "x");
  write_file(tmp / "other.jsonl.fleet-tmp-compact.Ab12Cd", "x");
  CHECK(remove_stale_temporaries(store) == 2);
  const auto left = run_ls(tmp.path());
  CHECK(std::find(left.begin(), left.end(), "session_provenance.jsonl.fleet-tmp-compact.Ab12Cd") ==
        left.end());
  CHECK(std::find(left.begin(), left.end(), "session_provenance.jsonl.fleet-tmp-idx.Zz99yy") ==
        left.end());
  CHECK(left.size() == 5);  // the store, the held temporary, and the three others
  CHECK(::access(held_path.c_str(), F_OK) == 0);
  held.reset();  // its writer is gone
  CHECK(remove_stale_temporaries(store) == 1);
  CHECK(::access(held_path.c_str(), F_OK) != 0);
}
