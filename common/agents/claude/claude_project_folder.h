#pragma once
// The folder Claude Code keeps a working directory's transcripts in, under
// ~/.claude/projects: its name as Claude Code itself makes it (read in the code of Claude
// Code 2.1.328 and checked against folders that CLI created, tests/fixtures/
// claude_project_folders.jsonl). Every UTF-16 code unit of the path that is not an ASCII
// letter or digit becomes '-' (a Cyrillic letter one dash, an emoji two); a name longer than
// 200 characters keeps its first 200, then '-' and the base-36 digits of |h|, where h is the
// 32-bit hash of the path's UTF-16 code units (h = h * 31 + unit, wrapping like JavaScript's
// `| 0`; |-2^31| is 2^31).

#include <string>
#include <string_view>

namespace fleet {

// The folder name for working directory `cwd` (UTF-8; a byte that starts no valid sequence
// counts as U+FFFD — Claude Code does not start in such a directory).
std::string claude_project_folder(std::string_view cwd);

}  // namespace fleet
