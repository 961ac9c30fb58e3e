#pragma once
// The standard descriptors 0, 1 and 2 of a program that may have been started with some of
// them closed (`0<&-`): every descriptor the program opens afterwards (pipes, spools, a
// signalfd) would otherwise take their numbers, and a later dup2 onto 0-2 or a write to
// "stdout" would hit the wrong file. Call first thing in main.

namespace fleet {

// Opens /dev/null on each of 0, 1, 2 that is closed; leaves open ones alone.
void occupy_standard_fds();

}  // namespace fleet
