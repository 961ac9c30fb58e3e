#pragma once
// CLI11 without the standard streams' start-up cost. CLI11's headers include <iostream>,
// and with libstdc++ every program that includes <iostream> anywhere builds std::cout,
// std::cin, std::cerr, their wide twins and the classic locale (about 30 facets) before
// main: ~45,000 instructions and a dozen page faults of code spread over the binary, paid by
// every run of a hook even though only --help and --version ever print through a stream.
// Including CLI11 through this header declares the eight stream objects exactly as
// <iostream> does but leaves out its static std::ios_base::Init; the streams are built on
// first need by standard_streams() (fleet::cli::parse calls it before CLI11 prints). A file
// that itself includes <iostream> (before or after this header) still gets the usual
// start-up initialisation, so direct use of std::cout stays safe there.

#include <istream>
#include <ostream>

#if defined(__GLIBCXX__) && !defined(_GLIBCXX_IOSTREAM)
#define _GLIBCXX_IOSTREAM 1
#define FLEET_CLI11_IOSTREAM_DEFERRED 1
namespace std _GLIBCXX_VISIBILITY(default) {
  _GLIBCXX_BEGIN_NAMESPACE_VERSION
  extern istream cin;
  extern ostream cout;
  extern ostream cerr;
  extern ostream clog;
#ifdef _GLIBCXX_USE_WCHAR_T
  extern wistream wcin;
  extern wostream wcout;
  extern wostream wcerr;
  extern wostream wclog;
#endif
  _GLIBCXX_END_NAMESPACE_VERSION
}  // namespace )
#endif

#include <CLI/CLI.hpp>

#ifdef FLEET_CLI11_IOSTREAM_DEFERRED
// A later #include <iostream> declares the same objects again and adds its initialisation.
#undef _GLIBCXX_IOSTREAM
#undef FLEET_CLI11_IOSTREAM_DEFERRED
#endif

namespace fleet::cli {

// Builds the standard stream objects if nothing has yet (idempotent, cheap after the first
// call). Call it before anything writes to std::cout, std::cerr or reads std::cin.
inline void standard_streams() {
  static const std::ios_base::Init streams;
}

}  // namespace fleet::cli
