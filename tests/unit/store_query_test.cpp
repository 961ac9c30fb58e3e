#include "store/store_query.h"

#include <doctest/doctest.h>

#include "store/provenance_store.h"
#include "temp_dir.h"

using namespace fleet;

TEST_CASE("store_query: by session - caller - kitchen") {
  fleet::test::TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  CHECK(find_records(store, RecordField::session_id, "x").empty());
  append_record(store, {"w-1", "l3-a", "k1", "", "r", "", "t"}, {});
  append_record(store, {"w-2", "l3-a", "k2", "", "r", "", "t"}, {});
  append_record(store, {"w-1", "l3-b", "k1", "", "r", "", "t"}, {});
  append_record(store, {"l3-a", "human", "k1", "", "", "", "t"}, {});
  CHECK(find_records(store, RecordField::session_id, "w-1").size() == 2);
  CHECK(find_records(store, RecordField::caller_session_id, "l3-a").size() == 2);
  CHECK(find_records(store, RecordField::kitchen_id, "k1").size() == 3);
  CHECK(find_records(store, RecordField::session_id, "w-").empty());  // exact, not a prefix
  const auto records = find_records(store, RecordField::session_id, "w-2");
  CHECK(records_text(records) == to_json_line(records[0]) + "\n");
}
