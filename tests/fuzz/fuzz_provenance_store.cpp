// Fuzz target: the provenance store's readers on arbitrary file content. Looking a session
// up through the index must give the same answer as scanning the store.
#include <fcntl.h>
#include <unistd.h>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "base/files.h"
#include "store/provenance_index.h"
#include "store/provenance_record.h"
#include "store/provenance_store.h"
#include "store/store_verify.h"

namespace {

const std::string& store_path() {
  static const std::string path = [] {
    char dir[] = "/tmp/fleet-fuzz-store-XXXXXX";
    if (::mkdtemp(dir) == nullptr) std::abort();
    return std::string(dir) + "/session_provenance.jsonl";
  }();
  return path;
}

// The same answer: for an ambiguous id, two sessions it starts each (a scan names the first two
// in store order, the index the first two by key).
bool same(const fleet::StoreLookup& a, const fleet::StoreLookup& b) {
  if (a.status == fleet::StoreLookup::Status::ambiguous) {
    return b.status == a.status && a.matches.size() == 2 && b.matches.size() == 2;
  }
  return a.status == b.status && a.record == b.record && a.matches == b.matches;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string content(reinterpret_cast<const char*>(data), size);
  // Every line on its own, as a reader sees it.
  std::size_t start = 0;
  while (start < content.size()) {
    std::size_t end = content.find('\n', start);
    if (end == std::string::npos) end = content.size();
    if (auto record =
            fleet::parse_provenance_line(std::string_view(content).substr(start, end - start))) {
      if (!fleet::record_problem(*record)) {
        // A valid record survives a round trip through the writer's format.
        if (fleet::parse_provenance_line(fleet::to_json_line(*record)) != record) std::abort();
      }
    }
    start = end + 1;
  }

  const std::string& store = store_path();
  ::unlink(fleet::index_path(store).c_str());
  fleet::replace_file_atomically(store, content, fleet::Durability::process_lifetime);
  fleet::verify_store(store);
  const char* ids[] = {"0d07e5d0-0000-4000-8000-000000000001", "0d07e5d0", "w-1", "a", "w"};
  fleet::StoreLookup scanned[5];
  for (int i = 0; i < 5; ++i) scanned[i] = fleet::lookup_session(store, ids[i]);
  fleet::UniqueFd fd = fleet::open_regular_file(store, O_RDONLY);
  fleet::update_index(store, fd.get(), nullptr, 0);
  for (int i = 0; i < 5; ++i) {
    if (!same(scanned[i], fleet::lookup_session(store, ids[i]))) std::abort();
  }
  return 0;
}
