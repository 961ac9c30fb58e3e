#include "launch/worker_session.h"

#include <unistd.h>

#include "base/error.h"
#include "base/paths.h"
#include "launch/worker_record.h"
#include "store/pending_launch.h"
#include "store/provenance_store.h"

namespace fleet {
namespace {

// The completion watch on --session-log, else on the agent CLI's session file of the
// session (found once it exists; with a captured id, once that is known too), unless the CLI
// reports a finished turn on its stdout.
std::unique_ptr<TranscriptWatch> make_transcript_watch(const CompletionOptions& completion,
                                                       const AgentProfile& agent,
                                                       std::function<std::string()> session_id) {
  if (completion.marker.empty() || completes_on_stdout(completion, agent)) return nullptr;
  const MarkerRule rule{completion.marker, completion.record_type, completion.marker_anywhere,
                        &agent.completion};
  if (!completion.session_log.empty()) {
    return std::make_unique<TranscriptWatch>(completion.session_log, rule, completion.poll_interval,
                                             completion.use_inotify);
  }
  SessionFileLocator locate = [&agent, session_id = std::move(session_id),
                               cwd = current_directory()] {
    const std::string id = session_id();
    return id.empty() ? std::string() : agent.session_file(id, cwd);
  };
  return std::make_unique<TranscriptWatch>(std::move(locate), rule, completion.poll_interval,
                                           completion.use_inotify);
}

// The completion watch on the agent's stdout, for a CLI that reports a finished turn there.
std::unique_ptr<StdoutCompletion> make_stdout_completion(const CompletionOptions& completion,
                                                         const AgentProfile& agent) {
  if (completion.marker.empty() || !completes_on_stdout(completion, agent)) return nullptr;
  return std::make_unique<StdoutCompletion>(MarkerRule{
      completion.marker, completion.record_type, completion.marker_anywhere, &agent.completion});
}

}  // namespace

WorkerSession::WorkerSession(Launch launch) : launch_(std::move(launch)) {
  if (launch_.plan.capture_session_id)
    capture_ = std::make_unique<SessionIdCapture>(launch_.options.agent->session_id);
  watch_ = make_transcript_watch(launch_.options.completion, *launch_.options.agent,
                                 [this] { return session_id(); });
  stdout_completion_ = make_stdout_completion(launch_.options.completion, *launch_.options.agent);
  if (watch_ && launch_.plan.resumes && launch_.plan.session_id.empty())
    watch_->resumes_unnamed_session();
  if (watch_)
    watch_->on_unreadable([this](const std::string& why) { launch_.notice("warning: " + why); });
}

WorkerSession::~WorkerSession() {
  if (pending_path_.empty()) return;
  try {
    withdraw_pending_launch(pending_path_);
  } catch (const Error&) {
    // Left behind: a claim of it later records a session that has ended, which is harmless.
  }
}

std::vector<std::string> WorkerSession::prepare() {
  const ProvenanceOptions& provenance = launch_.options.provenance;
  // A resume records nothing (its session has its owner's record already), named or not.
  if (!provenance.record || !launch_.plan.capture_session_id || launch_.plan.resumes) return {};
  pending_path_ = write_pending_launch(launch_.state_dir, launch_.record(""));
  return {std::string(kPendingLaunchEnv) + "=" + pending_path_};
}

bool WorkerSession::record_and_mark_boundary(bool record) {
  const std::string& id = launch_.plan.session_id;
  const bool recording = record && !id.empty();
  if (recording) {
    const AppendedRecord appended =
        append_record(provenance_store_path(launch_.state_dir), launch_.record(id),
                      {.fsync = launch_.options.provenance.fsync});
    if (appended.index_warning) launch_.notice("warning: " + *appended.index_warning);
  }
  // The resume boundary: what the transcript holds before the agent can write to it.
  if (watch_) watch_->mark_boundary();
  return recording;
}

CompletionWatch* WorkerSession::watch() const {
  if (stdout_completion_) return stdout_completion_.get();
  return watch_.get();
}

std::function<void(const char*, std::size_t)> WorkerSession::stdout_observer() {
  if (!capture_ && !stdout_completion_) return nullptr;
  return [this](const char* data, std::size_t size) { observe(data, size); };
}

void WorkerSession::observe(const char* data, std::size_t size) {
  if (stdout_completion_) stdout_completion_->feed(data, size);
  if (!capture_) return;
  if (capture_->feed(data, size)) {
    // A resumed session's file is found now, before its new turn can finish: its boundary.
    if (watch_) watch_->check();
    if (launch_.on_captured_id) launch_.on_captured_id(capture_->id());
  }
  // Its start hooks have run: a hook that was to claim the pending launch has done so.
  if (capture_->start_hooks_done()) settle();
}

void WorkerSession::settle() {
  if (settled_ || pending_path_.empty()) return;
  settled_ = true;
  try {
    const SettledLaunch settled =
        settle_pending_launch(pending_path_, capture_->id(), *launch_.options.agent,
                              {.fsync = launch_.options.provenance.fsync});
    settled_id_ = settled.session_id;
    if (settled.warning) launch_.notice("warning: " + *settled.warning);
  } catch (const Error& e) {
    // The agent runs on: a launch that stopped here would leave it unsupervised.
    launch_.notice(std::string("warning: cannot record the worker: ") + e.what());
  }
}

void WorkerSession::finish() {
  settle();
}

std::string WorkerSession::session_id() const {
  if (!launch_.plan.session_id.empty() || !capture_) return launch_.plan.session_id;
  return capture_->id().empty() ? settled_id_ : capture_->id();
}

}  // namespace fleet
