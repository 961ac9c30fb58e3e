#pragma once
// Validation of the identifiers fleet-hooks stores and turns into file names.
// Failing: an invalid value is an expected outcome, returned (bool, or the problem as a
// std::optional); only new_uuid_v4 and new_random_hex throw Error (no randomness to be had).

#include <optional>
#include <string>
#include <string_view>

namespace fleet {

inline constexpr std::size_t kMaxIdLength = 128;
inline constexpr std::size_t kMaxLabelLength = 256;

// Session ids, caller ids, kitchen ids, dispatch ids, member names and session keys.
// Valid: 1..128 bytes of [A-Za-z0-9._:@+=-], not starting with '.' or '-', never containing
// "..". Such a value is safe as a file name and as a command-line argument.
bool is_valid_id(std::string_view id);

// Why `id` is not valid; nullopt when it is. `what` names the value in the message.
std::optional<std::string> id_problem(std::string_view what, std::string_view id);

// Free-text labels (recipe and step names): up to 256 bytes, no control bytes. nullopt when
// valid, else the problem, naming the value as `what`.
std::optional<std::string> label_problem(std::string_view what, std::string_view label);

// 8-4-4-4-12 hexadecimal, as Claude Code session ids are.
bool is_uuid(std::string_view id);

// A new random (version 4) UUID in lower case, from the kernel's generator
// (platform/system_facts.h).
std::string new_uuid_v4();

// `bytes` random bytes from the kernel (platform/system_facts.h) as 2 * `bytes` lower-case
// hexadecimal digits: an unguessable token (16 bytes: 128 bits).
std::string new_random_hex(std::size_t bytes);

}  // namespace fleet
