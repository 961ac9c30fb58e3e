#pragma once
// The trust seam of an agent CLI: what a project's hooks need before the CLI runs them, read
// and written by the code in the CLI's home (common/agents/<name>/) and reached by the rest
// through these function pointers (AgentCli::hook_trust). A CLI that runs a project's hooks
// as they are (Claude Code) leaves them all null.
// Failing: each function says how it fails where its home defines it (check and reported
// throw nothing; write throws Error, trusting nothing).

#include <string>
#include <string_view>
#include <vector>

#include "base/finding.h"

namespace fleet {

struct ConfiguredHook;  // settings/hook_sources.h
struct WrittenTrust;    // settings/trust_written.h

// One of the suite's hooks as the CLI's hook file holds it, and what it is for a person ("the
// resume-guard hook").
struct HookToTrust {
  const ConfiguredHook* hook;
  std::string what;
};

// A hook install --trust leaves untrusted: its key, and its command, which install never writes.
struct TrustRefusal {
  std::string key;
  std::string command;
};

// What install --trust wrote, or would write with dry_run.
struct TrustUpdate {
  std::string path;     // the CLI's trust record (Codex: $CODEX_HOME/config.toml)
  std::string project;  // the path the project is trusted under
  std::string text;     // the record as it is afterwards
  bool changed = false;
  // write: the project's own trust was not in the record, this wrote it (`created`: the record
  // file too). remove: took the project's trust back (`created`: removed the record file,
  // which then held nothing).
  bool project_trusted = false;
  bool created = false;
  std::vector<std::string> trusted;    // the hook keys trusted
  std::vector<std::string> untrusted;  // the hook keys whose trust remove took back
  std::vector<TrustRefusal> refused;   // left untrusted: not a command install writes
};

struct HookTrust {
  // How the trust messages name the CLI ("Codex"); "" : no trust.
  std::string_view named_as = "";
  // What `fleet-hooks check` reads of that trust, after "and " in its help ("its trust").
  std::string_view checked = "";
  // What write trusts, before the path of its record in the help of `install --trust` ("the
  // project and the suite's own hooks in").
  std::string_view written = "";
  // The findings that say the CLI will not run the suite's `hooks` of `project_dir`, read from
  // its records under its configuration directory `config_home`; null: nothing to trust.
  std::vector<Finding> (*check)(const std::string& project_dir, const std::string& config_home,
                                const std::vector<HookToTrust>& hooks) = nullptr;
  // What the installed CLI itself reports for `project_dir` (asked only when it is on PATH);
  // null: the CLI is not asked.
  std::vector<Finding> (*reported)(const std::string& project_dir, bool own_check_passed) = nullptr;
  // `fleet-hooks install --trust`: trusts the project and the suite's own hooks; null: the
  // CLI's trust is the user's to give.
  TrustUpdate (*write)(const std::string& project_dir, const std::string& config_home,
                       bool dry_run) = nullptr;
  // The file write changes, under `config_home`.
  std::string (*record_path)(const std::string& config_home) = nullptr;
  // `fleet-hooks uninstall`, before the project's file is unwired: takes back what write wrote
  // for the suite's hooks (TrustUpdate::untrusted) and, when `written` says write added it
  // (settings/trust_written.h; null: the trust was the user's before), the project's own trust
  // in the form write wrote it (TrustUpdate::project_trusted), removing the record file write
  // created once it holds nothing else — every other byte kept, and no backup: the bytes taken
  // out are the suite's. With dry_run it says what it would. Null: write is null too.
  TrustUpdate (*remove)(const std::string& project_dir, const std::string& config_home,
                        const WrittenTrust* written, bool dry_run) = nullptr;
};

}  // namespace fleet
