#pragma once
// Text from a repository (a policy case's name, a hook command, a settings file's path) made
// safe to print on one line of a terminal or a CI log: a newline in it must not start a line
// that a GitHub Actions runner reads as a workflow command (`::error …`), nor an escape
// sequence drive the terminal.
// Failing: nothing; every byte string has a printable form.

#include <string>
#include <string_view>

namespace fleet {

// `text` with each control character (C0, DEL, and C1 as UTF-8 encodes them) written as an
// escape: \n, \r, \t, else \xNN for each of its bytes. Everything else, valid UTF-8 or not, is
// kept as it is; text without control characters comes back unchanged.
std::string printable(std::string_view text);

}  // namespace fleet
