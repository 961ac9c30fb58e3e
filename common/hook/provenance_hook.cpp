#include "hook/provenance_hook.h"

#include <algorithm>

#include <memory>

#include "base/error.h"
#include "base/json.h"
#include "base/paths.h"
#include "hook/tool_names.h"
#include "store/provenance_store.h"

namespace fleet {
namespace {

// The JSON objects a dispatch call's fields are looked up in, most specific first.
class FieldSources {
 public:
  explicit FieldSources(const HookInput& hook) {
    if (const rapidjson::Value* response = hook.tool_response()) {
      add_response(*response, hook.agent().response);
    }
    for (const HookFileReader& reader : hook.agent().also_read_by) {
      add_json_text(hook.reader_result_text(reader));
    }
    if (const rapidjson::Value* input = hook.tool_input(); input && input->IsObject()) {
      objects_.push_back(input);
    }
  }

  // The first non-empty string under any of `keys`, searching source by source; nullopt
  // when there is none.
  std::optional<std::string> find(std::initializer_list<const char*> keys) const {
    for (const rapidjson::Value* object : objects_) {
      for (const char* key : keys) {
        auto value = string_member(*object, key);
        if (value && !value->empty()) return std::string(*value);
      }
    }
    return std::nullopt;
  }

 private:
  void add_response(const rapidjson::Value& response, const ToolResponseForm& form) {
    if (response.IsObject()) {
      objects_.push_back(&response);
      if (*form.text_key) add_json_text(string_member(response, form.text_key).value_or(""));
    } else if (response.IsString()) {
      add_json_text({response.GetString(), response.GetStringLength()});
    }
    const rapidjson::Value* blocks =
        *form.blocks_key ? member(response, form.blocks_key) : &response;
    if (blocks == nullptr || !blocks->IsArray()) return;
    for (const rapidjson::Value& block : blocks->GetArray()) {
      auto type = string_member(block, "type");
      auto text = string_member(block, "text");
      const bool typed = *form.block_type == '\0' || (type && *type == form.block_type);
      if (typed && text) add_json_text(unwrapped(*text, form));
    }
  }

  // `text` without the CLI's wrapper around a tool's answer (Gemini: <untrusted_context>).
  static std::string_view unwrapped(std::string_view text, const ToolResponseForm& form) {
    if (form.text_open.empty() || !text.starts_with(form.text_open)) return text;
    if (!text.ends_with(form.text_close)) return text;
    const std::size_t wrap = form.text_open.size() + form.text_close.size();
    if (text.size() < wrap) return text;
    return text.substr(form.text_open.size(), text.size() - wrap);
  }

  void add_json_text(std::string_view text) {
    Result<rapidjson::Document> parsed = parse_json_object(text);
    if (!parsed) return;
    auto doc = std::make_unique<rapidjson::Document>(std::move(*parsed));
    objects_.push_back(doc.get());
    parsed_.push_back(std::move(doc));
  }

  std::vector<std::unique_ptr<rapidjson::Document>> parsed_;
  std::vector<const rapidjson::Value*> objects_;
};

}  // namespace

namespace {

// The session a resume_session_id names: the session the store resolves it to (the exact id,
// or the one recorded session a short id is the start of), else the id as it is.
std::string resumed_session(const std::string& store_path, std::string_view resumed) {
  StoreLookup found = lookup_session(store_path, resumed);
  if (found.status == StoreLookup::Status::found) return std::move(found.record.session_id);
  return std::string(resumed);
}

}  // namespace

DispatchedRecord dispatched_record(const HookInput& hook, const std::string& default_kitchen,
                                   const std::string& store_path,
                                   std::span<const AgentCli* const> known_agents) {
  const FieldSources sources(hook);
  DispatchedRecord result;
  ProvenanceRecord& record = result.record;
  std::optional<std::string> dispatched = sources.find({"dispatched_session_id", "session_id"});
  if (!dispatched) return result;
  record.session_id = std::move(*dispatched);
  if (const rapidjson::Value* input = hook.tool_input(); input && input->IsObject()) {
    const auto resumed = string_member(*input, "resume_session_id");
    // The resumed session itself: compared exactly, once a prefix is resolved to its session
    // (a fresh w-10 launched instead of a resumed w-1 is a new session).
    if (resumed && !resumed->empty() &&
        (record.session_id == *resumed ||
         (std::string_view(record.session_id).starts_with(*resumed) &&
          resumed_session(store_path, *resumed) == record.session_id))) {
      result.outcome = DispatchedRecord::Outcome::resumed;
      return result;
    }
  }
  result.outcome = DispatchedRecord::Outcome::launched;
  record.caller_session_id = std::string(hook.caller_session_id());
  record.dispatch_id = sources.find({"dispatch_id"}).value_or("");
  record.kitchen_id = sources.find({"kitchen_id"}).value_or(default_kitchen);
  record.recipe_name = sources.find({"recipe_name"}).value_or(kUnnamedRecipe);
  record.step_name = sources.find({"step_name"}).value_or("");
  // The dispatched session's CLI, when the dispatcher names one the suite knows (the hook's
  // own --agent is the caller's CLI, not the worker's).
  const std::string agent = sources.find({"agent_cli"}).value_or("");
  if (std::ranges::any_of(known_agents,
                          [&](const AgentCli* known) { return known->name == agent; }))
    record.agent_cli = agent;
  return result;
}

std::optional<std::string> run_provenance_hook(const BoundedRead& input,
                                               const ProvenanceHookOptions& options) {
  const std::string prefix = "provenance-writer hook: ";
  if (input.error) return prefix + "cannot read stdin: " + *input.error + "; nothing recorded";
  if (input.truncated) return prefix + "hook input is too large; nothing recorded";
  try {
    const HookInput hook(input.text, *options.agent);
    if (!hook.valid()) return prefix + hook.error() + "; nothing recorded";
    const std::string_view event = hook.hook_event_name();
    if (!event.empty() && event != options.agent->post_tool_event) return std::nullopt;
    if (!is_dispatch_tool(hook.tool_name(), options.tools, *options.agent)) return std::nullopt;

    const std::string store =
        provenance_store_path(resolve_state_dir(options.state_dir, hook.cwd()));
    DispatchedRecord dispatched =
        dispatched_record(hook, options.kitchen_id, store, options.known_agents);
    switch (dispatched.outcome) {
      case DispatchedRecord::Outcome::resumed:
        return std::nullopt;
      case DispatchedRecord::Outcome::no_session_id:
        return prefix +
               "no dispatched session id (dispatched_session_id or session_id) in tool_response "
               "or tool_input; nothing recorded";
      case DispatchedRecord::Outcome::launched:
        break;
    }
    const AppendedRecord appended =
        append_record(store, build_record(std::move(dispatched.record)), options.append);
    if (appended.index_warning) return prefix + "warning: " + *appended.index_warning;
    return std::nullopt;
  } catch (const std::exception& e) {
    return prefix + e.what() + "; nothing recorded";
  }
}

}  // namespace fleet
