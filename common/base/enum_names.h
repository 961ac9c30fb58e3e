#pragma once
// The names of an enum's values, written once next to the enum: a specialisation of
// EnumNames lists them in declaration order, and to_string / from_string read that list.
// The names are what files, JSON and stderr carry (a summary's kill_reason, a session's
// state), so a value is spelled in exactly one place.
// Failing: a name that names no value is nullopt (from_string); nothing here throws.
//
//   enum class Colour { red, green };
//   template <> struct EnumNames<Colour> {
//     static constexpr std::array<std::string_view, 2> names{"red", "green"};
//   };

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace fleet {

template <class E>
struct EnumNames;

template <class E>
concept NamedEnum = std::is_enum_v<E> && requires {
  EnumNames<E>::names.size();
};

template <NamedEnum E>
constexpr std::string_view to_string(E value) {
  return EnumNames<E>::names[static_cast<std::size_t>(value)];
}

// The value named `name`, nullopt when no value has that name.
template <NamedEnum E>
constexpr std::optional<E> from_string(std::string_view name) {
  for (std::size_t i = 0; i < EnumNames<E>::names.size(); ++i) {
    if (EnumNames<E>::names[i] == name) return static_cast<E>(i);
  }
  return std::nullopt;
}

// Every value of E, in declaration order (for tests and messages that list them).
template <NamedEnum E>
constexpr std::array<E, EnumNames<E>::names.size()> all_values() {
  std::array<E, EnumNames<E>::names.size()> values{};
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<E>(i);
  return values;
}

// Every name of E, in declaration order (for a command line's list of choices).
template <NamedEnum E>
std::vector<std::string> all_names() {
  return {EnumNames<E>::names.begin(), EnumNames<E>::names.end()};
}

}  // namespace fleet
