#include "base/printable.h"

#include <doctest/doctest.h>

using fleet::printable;

TEST_CASE("printable: control characters become escapes, the rest is kept") {
  CHECK(printable("plain name, é, ✓") == "plain name, é, ✓");
  CHECK(printable("a\n::error::x") == "a\\n::error::x");
  CHECK(printable("\r\t\x1b[31m\x7f") == "\\r\\t\\x1b[31m\\x7f");
  CHECK(printable(std::string("nul\0end", 7)) == "nul\\x00end");
  CHECK(printable("next line\xc2\x85here") == "next line\\xc2\\x85here");  // U+0085 (C1)
  CHECK(printable("\xc2\xa0") == "\xc2\xa0");  // U+00A0 is not a control character
  CHECK(printable("\xc2") == "\xc2");          // a truncated sequence is kept as it is
}
