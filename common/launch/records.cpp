#include "launch/records.h"

#include <unistd.h>

#include "base/error.h"
#include "base/paths.h"
#include "base/timestamp.h"
#include "launch/agent_control.h"
#include "process/launch_caller.h"
#include "process/process_identity.h"

namespace fleet {

LaunchRecords::LaunchRecords(const LaunchOptions& options) : options_(options) {
  if (options.provenance.record) {
    const Result<std::string> caller = launch_caller(
        options.provenance.caller_session_id,
        {.clis = options.provenance.caller_clis, .profiles = options.provenance.caller_profiles},
        options.provenance.call);
    caller_ = caller ? *caller : "";
    caller_problem_ = caller.problem();
  }
  if (!options.member.empty() || options.provenance.record ||
      !options.session.session_key.empty()) {
    state_dir_ = launch_state_dir(options.state_dir, caller_);
  }
  if (!options.member.empty()) registry_.emplace(state_dir_, options.member);
  if (!options.session.session_key.empty())
    sessions_.emplace(state_dir_, options.session.session_key);
}

LaunchPlan LaunchRecords::plan(
    const std::function<LaunchPlan(const std::optional<SessionState>&)>& decide) {
  std::optional<UniqueFd> lock;
  std::optional<SessionState> recorded;
  if (sessions_) {
    lock = sessions_->lock();
    recorded = sessions_->read();
  }
  LaunchPlan plan = decide(recorded);
  if (plan.session_state) sessions_->write(*plan.session_state);
  return plan;
}

ProvenanceRecord LaunchRecords::provenance_record(const std::string& session_id) const {
  const ProvenanceOptions& p = options_.provenance;
  return build_record({session_id, caller_, p.kitchen_id, p.dispatch_id, p.recipe_name, p.step_name,
                       "", std::string(options_.agent->name)});
}

void LaunchRecords::update_session(const std::string& session_id,
                                   const std::function<void(SessionState&)>& change) {
  if (!sessions_) return;
  UniqueFd lock = sessions_->lock();
  SessionState state = sessions_->read().value_or(SessionState{});
  state.session_key = options_.session.session_key;
  if (state.session_id.empty()) state.session_id = session_id;
  change(state);
  sessions_->write(state);
  final_state_ = state.state;
}

UniqueFd LaunchRecords::lock_member() const {
  return registry_ ? registry_->lock() : UniqueFd();
}

bool LaunchRecords::superseded() {
  if (!registry_ || recorded_pid_ == 0) return false;
  const RegistryRead read = registry_->read();
  if (read.status == RegistryRead::Status::ok && read.record.process.pid == recorded_pid_)
    return false;
  recorded_pid_ = 0;
  return true;
}

void LaunchRecords::stop_previous_agent(const LaunchNotice& notice) const {
  if (!registry_ || recorded_pid_ != 0) return;
  const AgentStop previous = stop_recorded_agent(*registry_, options_.grace);
  if (previous.outcome != AgentStop::Outcome::no_record) {
    notice("previous agent of member " + options_.member + ": " + previous.message);
  }
  if (previous.outcome == AgentStop::Outcome::failed) {
    throw Error("the previous agent of member " + options_.member + " could not be stopped");
  }
}

void LaunchRecords::record_agent(pid_t agent, const LaunchPlan& plan,
                                 const Containment& containment) {
  if (!registry_) return;
  const auto identity = identify_process(agent);
  if (!identity) throw Error("the agent process vanished before it was released");
  registry_->write({options_.member, *identity, agent, plan.session_id, utc_timestamp_now(),
                    plan.command, containment});
  recorded_pid_ = agent;
}

bool LaunchRecords::owes_provenance(const LaunchPlan& plan) const {
  return options_.provenance.record && !plan.resumes && !provenance_written_;
}

void LaunchRecords::announce(pid_t agent) {
  if (options_.announce != AnnounceMode::agent && announced_) return;
  const pid_t named = options_.announce == AnnounceMode::agent ? agent : ::getpid();
  write_all(STDOUT_FILENO, options_.announce_prefix + std::to_string(named) + "\n", "stdout");
  announced_ = true;
}

void LaunchRecords::record_output_spool(pid_t agent, const std::string& stream,
                                        const std::string& path) const {
  if (!registry_) return;
  UniqueFd lock = registry_->lock();
  RegistryRead read = registry_->read();
  if (read.status == RegistryRead::Status::ok && read.record.process.pid == agent) {
    if (read.record.output_spool.empty() || stream == "out") read.record.output_spool = path;
    registry_->write(read.record);
  }
}

bool LaunchRecords::names(pid_t agent) const {
  if (!registry_) return true;
  UniqueFd lock = registry_->lock();
  const RegistryRead read = registry_->read();
  return read.status == RegistryRead::Status::ok && read.record.process.pid == agent;
}

void LaunchRecords::release() {
  if (!registry_ || recorded_pid_ == 0) return;
  UniqueFd lock = registry_->lock();
  const RegistryRead read = registry_->read();
  if (read.status == RegistryRead::Status::ok && read.record.process.pid == recorded_pid_)
    registry_->remove();
  recorded_pid_ = 0;
}

}  // namespace fleet
