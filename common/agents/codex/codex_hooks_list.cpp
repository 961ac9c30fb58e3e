#include "agents/codex/codex_hooks_list.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>

#include <rapidjson/document.h>

#include "agents/codex/codex_cli.h"
#include "base/files.h"
#include "base/json.h"
#include "base/paths.h"
#include "process/child_process.h"
#include "process/spawn.h"
#include "settings/hook_wiring.h"

namespace fleet {
namespace {

using rapidjson::Value;

constexpr int kListId = 2;
constexpr std::chrono::seconds kAnswerTimeout{60};

// One JSON-RPC line of the app-server protocol (no "jsonrpc" member: Codex leaves it out).
std::string request_line(int id, const char* method, Value params) {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  if (id != 0) doc.AddMember("id", id, alloc);
  doc.AddMember("method", rapidjson::StringRef(method), alloc);
  if (!params.IsNull()) doc.AddMember("params", Value(params, alloc), alloc);
  return to_json(doc) + "\n";
}

std::string requests(const std::string& project_dir) {
  rapidjson::Document params(rapidjson::kObjectType);
  auto& alloc = params.GetAllocator();
  Value client(rapidjson::kObjectType);
  client.AddMember("name", "fleet-hooks", alloc);
  client.AddMember("version", "1", alloc);
  Value init(rapidjson::kObjectType);
  init.AddMember("clientInfo", client, alloc);
  Value cwds(rapidjson::kArrayType);
  cwds.PushBack(json_string(project_dir, alloc), alloc);
  Value list(rapidjson::kObjectType);
  list.AddMember("cwds", cwds, alloc);
  return request_line(1, "initialize", Value(init, alloc)) +
         request_line(0, "initialized", Value()) +
         request_line(kListId, "hooks/list", Value(list, alloc));
}

// "preToolUse" → "PreToolUse".
std::string hook_event(std::string_view listed) {
  std::string event(listed);
  if (!event.empty() && event[0] >= 'a' && event[0] <= 'z')
    event[0] = static_cast<char>(event[0] - 'a' + 'A');
  return event;
}

// hooks/list's answer `line`, nullopt when it is another message.
std::optional<Result<CodexHookList>> list_answer(const std::string& line) {
  const Result<rapidjson::Document> doc = parse_json_object(line);
  if (!doc) return std::nullopt;
  const Value* id = member(*doc, "id");
  if (id == nullptr || !id->IsInt() || id->GetInt() != kListId) return std::nullopt;
  if (const Value* error = member(*doc, "error")) {
    return Result<CodexHookList>::failure(
        "codex app-server answered hooks/list with an error: " +
        std::string(string_member(*error, "message").value_or(to_json(*error))));
  }
  const Value* result = member(*doc, "result");
  const Value* data = result ? member(*result, "data") : nullptr;
  if (data == nullptr || !data->IsArray())
    return Result<CodexHookList>::failure("codex app-server's hooks/list answer has no data");
  CodexHookList list;
  for (const Value& cwd : data->GetArray()) {
    if (const Value* errors = member(cwd, "errors"); errors && errors->IsArray()) {
      for (const Value& e : errors->GetArray())
        list.errors.emplace_back(string_member(e, "message").value_or(to_json(e)));
    }
    const Value* hooks = member(cwd, "hooks");
    if (hooks == nullptr || !hooks->IsArray()) continue;
    for (const Value& h : hooks->GetArray()) {
      const Value* enabled = member(h, "enabled");
      list.hooks.push_back({std::string(string_member(h, "key").value_or("")),
                            hook_event(string_member(h, "eventName").value_or("")),
                            std::string(string_member(h, "command").value_or("")),
                            std::string(string_member(h, "currentHash").value_or("")),
                            std::string(string_member(h, "trustStatus").value_or("")),
                            enabled == nullptr || !enabled->IsFalse()});
    }
  }
  return list;
}

// Reads `out` line by line until hooks/list's answer, its end or `deadline`.
Result<CodexHookList> read_answer(int out, std::chrono::steady_clock::time_point deadline) {
  std::string pending;
  char buffer[65536];
  for (;;) {
    for (std::size_t newline; (newline = pending.find('\n')) != std::string::npos;) {
      const std::string line = pending.substr(0, newline);
      pending.erase(0, newline + 1);
      if (auto answer = list_answer(line)) return std::move(*answer);
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return Result<CodexHookList>::failure("codex app-server did not answer hooks/list in time");
    struct pollfd fd = {out, POLLIN, 0};
    if (::poll(&fd, 1, static_cast<int>(left.count())) < 0 && errno != EINTR)
      return Result<CodexHookList>::failure("cannot read codex app-server's answer");
    if (fd.revents == 0) continue;
    const ssize_t n = ::read(out, buffer, sizeof buffer);
    if (n == 0 || (n < 0 && errno != EINTR))
      return Result<CodexHookList>::failure("codex app-server ended before it answered hooks/list");
    if (n > 0) pending.append(buffer, static_cast<std::size_t>(n));
  }
}

std::string how_to_trust_again(const std::string& project_dir) {
  return "trust them again: fleet-hooks install --agent codex --trust --project " + project_dir +
         ", or /hooks in `codex`";
}

}  // namespace

Result<CodexHookList> codex_hooks_list(const std::string& program, const std::string& project_dir,
                                       const std::vector<std::string>& env,
                                       std::chrono::milliseconds timeout) {
  Pipe in = make_pipe(), out = make_pipe();
  UniqueFd null(::open("/dev/null", O_WRONLY | O_CLOEXEC));
  SpawnOptions options;
  options.stdin_fd = in.read_end.get();
  options.stdout_fd = out.write_end.get();
  options.stderr_fd = null.get();
  options.die_with_parent = true;
  sigaddset(&options.default_signals, SIGPIPE);
  Spawned child = spawn({program, "app-server"}, env, options);
  const pid_t pid = child.pid();
  if (const auto failure = child.release()) {
    wait_child(pid);
    return Result<CodexHookList>::failure("cannot run " + program + ": " + failure->reason());
  }
  in.read_end.reset();
  out.write_end.reset();
  null.reset();
  // The requests fit in the pipe: written at once; a server already gone is no signal here.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  const std::string sent = requests(project_dir);
  const bool written =
      ::write(in.write_end.get(), sent.data(), sent.size()) == static_cast<ssize_t>(sent.size());
  ::sigaction(SIGPIPE, &previous, nullptr);
  Result<CodexHookList> answer =
      written ? read_answer(out.read_end.get(), std::chrono::steady_clock::now() + timeout)
              : Result<CodexHookList>::failure("codex app-server did not take the requests");
  ::kill(-pid, SIGKILL);
  wait_child(pid);
  return answer;
}

std::vector<Finding> codex_reported_findings(const std::string& project_dir,
                                             bool own_check_passed) {
  const std::optional<std::string> program = find_on_path("codex");
  if (!program) return {};
  const std::string cwd = resolved_path(project_dir);
  const Result<CodexHookList> list =
      codex_hooks_list(*program, cwd, environment_with({}),
                       std::chrono::duration_cast<std::chrono::milliseconds>(kAnswerTimeout));
  if (!list) {
    return {{"codex-not-asked", Severity::warning,
             list.problem() + ", so check could not confirm with Codex itself that it runs the "
                              "suite's hooks",
             *program}};
  }
  std::vector<Finding> findings;
  for (const std::string& error : list->errors) {
    findings.push_back({"codex-config-error", Severity::error,
                        "Codex reports: " + error +
                            " — Codex does not start with that configuration (codex exec "
                            "refuses to run); fix the file",
                        cwd});
  }
  if (!own_check_passed) return findings;  // the suite's own findings already say why
  const AgentCli& codex = kCodexCli;
  bool listed = false;
  for (const CodexListedHook& hook : list->hooks) {
    if (suite_hook_of_command(hook.command, hook.event, codex) == nullptr) continue;
    listed = true;
    if (hook.trust_status == "trusted" && hook.enabled) continue;
    findings.push_back({"codex-reports-untrusted", Severity::error,
                        "Codex itself reports the suite's hook " + hook.key + " as " +
                            (hook.enabled ? hook.trust_status : "turned off") + " (its hash " +
                            hook.current_hash +
                            "): codex exec skips it and the call runs unguarded; " +
                            how_to_trust_again(project_dir),
                        *program, hook.enabled});
  }
  if (!listed && list->errors.empty()) {
    findings.push_back({"codex-reports-untrusted", Severity::error,
                        "Codex itself lists none of the suite's hooks for " + cwd +
                            ": it does not load them, and every dispatch runs unguarded; " +
                            how_to_trust_again(project_dir),
                        *program, true});
  }
  return findings;
}

}  // namespace fleet
