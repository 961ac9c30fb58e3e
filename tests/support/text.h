#pragma once
// Test support: what a test asks of the text a program printed or a file holds.

#include <string>

namespace fleet::test {

// Does `text` contain `part`?
inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace fleet::test
