#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as lowercase hex: what Codex CLI's hook trust hashes
// are made of (settings/codex_trust.h). Small and dependency-free; not for secrets.
// Failing: nothing here fails.

#include <string>
#include <string_view>

namespace fleet {

// The SHA-256 digest of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace fleet
