#include "base/cli.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "base/closest_word.h"

namespace fleet::cli {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c == '-') c = '_';
  }
  return out;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// The placeholder after an option that takes a value: the option's own text when it has one;
// the choices of a set; SECONDS, N or NUMBER for numbers; DIR for directories; otherwise the
// last word of the option's name (--announce-prefix PREFIX, --kitchen-id ID).
std::string placeholder(const CLI::Option* opt) {
  if (!opt->get_option_text().empty()) return opt->get_option_text();
  const std::string type = opt->get_type_name();
  const std::size_t brace = type.find(":{");
  if (brace != std::string::npos && type.back() == '}') {
    std::string choices = type.substr(brace + 2, type.size() - brace - 3);
    std::replace(choices.begin(), choices.end(), ',', '|');
    return choices;
  }
  const std::string base = type.substr(0, type.find(':'));
  const std::string& description = opt->get_description();
  if (base == "FLOAT" || base == "NUMBER") {
    return contains(description, "econds") ? "SECONDS" : "NUMBER";
  }
  if (base == "INT" || base == "UINT") return "N";
  const std::string name = opt->get_lnames().empty() ? opt->get_name() : opt->get_lnames().front();
  if (name.ends_with("dir") || contains(description, "irectory")) return "DIR";
  const std::size_t dash = name.rfind('-');
  return upper(dash == std::string::npos ? name : name.substr(dash + 1));
}

class PlainFormatter : public CLI::Formatter {
 public:
  explicit PlainFormatter(std::string usage) : usage_(std::move(usage)) {}

  std::string make_option_opts(const CLI::Option* opt) const override {
    std::string out;
    if (opt->get_type_size() != 0 && !opt->get_type_name().empty() && !opt->get_positional()) {
      out += " " + placeholder(opt);
    }
    if (opt->get_required()) out += " (required)";
    return out;
  }

  std::string make_option_usage(const CLI::Option* opt) const override {
    return opt->get_positional() ? upper(opt->get_name()) : CLI::Formatter::make_option_usage(opt);
  }

  std::string make_usage(const CLI::App* app, std::string name) const override {
    if (usage_.empty()) return CLI::Formatter::make_usage(app, std::move(name));
    return "Usage: " + usage_ + "\n";
  }

 private:
  std::string usage_;
};

void use_plain_formatter(CLI::App& app, const std::string& usage) {
  // A subcommand given its usage line (set_usage) keeps it.
  if (!std::dynamic_pointer_cast<PlainFormatter>(app.get_formatter()))
    app.formatter(std::make_shared<PlainFormatter>(usage));
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    use_plain_formatter(*sub, "");
  }
}

// "prog" or "prog sub": how an app is named at the start of a message.
std::string label(const CLI::App* app) {
  std::string name = app->get_name();
  for (const CLI::App* parent = app->get_parent(); parent != nullptr;
       parent = parent->get_parent()) {
    name = parent->get_name() + " " + name;
  }
  return name;
}

// The apps from `root` down to the deepest subcommand that took part in the parse.
std::vector<CLI::App*> parsed_chain(CLI::App& root) {
  std::vector<CLI::App*> chain = {&root};
  for (;;) {
    const auto subs = chain.back()->get_subcommands([](CLI::App* s) { return s->count() > 0; });
    if (subs.empty()) return chain;
    chain.push_back(subs.front());
  }
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& n : opt->get_lnames()) names.push_back("--" + n);
    for (const auto& n : opt->get_snames()) names.push_back("-" + n);
  }
  return names;
}

std::vector<const CLI::App*> subcommands_of(const CLI::App& app) {
  std::vector<const CLI::App*> subs;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (!sub->get_name().empty() && !sub->get_disabled()) subs.push_back(sub);
  }
  return subs;
}

// "Usage: …" and the list of subcommands, for a missing or unknown subcommand.
std::string subcommand_listing(const CLI::App& app) {
  const auto& formatter = static_cast<const CLI::Formatter&>(*app.get_formatter());
  std::string text = formatter.make_usage(&app, label(&app));
  text += "Subcommands:\n";
  std::size_t width = 0;
  for (const CLI::App* sub : subcommands_of(app)) width = std::max(width, sub->get_name().size());
  for (const CLI::App* sub : subcommands_of(app)) {
    std::string name = sub->get_name();
    name.resize(width + 2, ' ');
    text += "  " + name + sub->get_description() + "\n";
  }
  text += "Run '" + label(&app) + " SUBCOMMAND --help' for the options of one.\n";
  return text;
}

struct Report {
  std::string line;   // without the program name
  std::string extra;  // more lines (usage), "" for none
};

Report unknown_word(const CLI::App& app, const std::string& word, bool subcommand_expected) {
  if (word.size() > 1 && word.starts_with('-')) {
    const std::string name = word.substr(0, word.find('='));
    std::string line = "unknown option " + name;
    if (const auto suggestion = closest_word(name, option_names(app)))
      return {line + "; did you mean " + *suggestion + "?", ""};
    // An option of other subcommands: say which.
    if (const CLI::App* parent = app.get_parent()) {
      std::vector<std::string> owners;
      for (const CLI::App* sibling : subcommands_of(*parent)) {
        const auto names = option_names(*sibling);
        if (std::find(names.begin(), names.end(), name) != names.end()) {
          owners.push_back(sibling->get_name());
        }
      }
      if (!owners.empty()) {
        line += " (an option of ";
        for (std::size_t i = 0; i < owners.size(); ++i) {
          line += i == 0 ? "" : i + 1 == owners.size() ? " and " : ", ";
          line += owners[i];
        }
        line += ")";
      }
    }
    return {line, ""};
  }
  if (subcommand_expected) {
    std::vector<std::string> names;
    for (const CLI::App* sub : subcommands_of(app)) names.push_back(sub->get_name());
    const auto suggestion = closest_word(word, names);
    return {
        "unknown subcommand " + word + (suggestion ? "; did you mean " + *suggestion + "?" : ""),
        subcommand_listing(app)};
  }
  return {"unexpected argument '" + word + "'", ""};
}

std::string number_text(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

// CLI11's own messages, reworded: "NAME: Value V not in range A to B", "NAME: V not in
// {a,b}", "NAME: 1 required TEXT missing", "A excludes B", "Could not convert: NAME = V".
std::string reworded(const CLI::ParseError& e) {
  const std::string message = e.what();
  const std::string kind = e.get_name();
  const std::size_t colon = message.find(": ");
  const std::string name = colon == std::string::npos ? "" : message.substr(0, colon);
  const std::string rest = colon == std::string::npos ? message : message.substr(colon + 2);
  if (kind == "ValidationError" && !name.empty()) {
    if (rest.starts_with("Value ")) {
      const std::size_t range = rest.find(" not in range ");
      const std::size_t to = rest.find(" to ", range == std::string::npos ? 0 : range);
      if (range != std::string::npos && to != std::string::npos) {
        const std::string value = rest.substr(6, range - 6);
        const double low = std::strtod(rest.c_str() + range + 14, nullptr);
        const double high = std::strtod(rest.c_str() + to + 4, nullptr);
        if (high > 1e300) {
          return name + " must be a number of at least " + number_text(low) + ", not " + value;
        }
        return name + " must be a number from " + number_text(low) + " to " + number_text(high) +
               ", not " + value;
      }
    }
    const std::size_t set = rest.find(" not in {");
    if (set != std::string::npos && rest.back() == '}') {
      std::string choices = rest.substr(set + 9, rest.size() - set - 10);
      std::string spaced;
      for (char c : choices) spaced += c == ',' ? std::string(", ") : std::string(1, c);
      return name + " must be one of " + spaced + ", not " + rest.substr(0, set);
    }
    return name + ": " + rest;
  }
  if (kind == "ArgumentMismatch" && !name.empty() && rest.ends_with(" missing") &&
      contains(rest, " required ")) {
    return name + " needs a value";
  }
  if (kind == "ExcludesError") {
    const std::size_t excludes = message.find(" excludes ");
    if (excludes != std::string::npos) {
      return message.substr(0, excludes) + " and " + message.substr(excludes + 10) +
             " cannot be used together";
    }
  }
  if (kind == "ConversionError" && message.starts_with("Could not convert: ")) {
    const std::size_t eq = message.find(" = ");
    if (eq != std::string::npos) {
      return message.substr(19, eq - 19) + " does not accept " + message.substr(eq + 3);
    }
  }
  std::string plain = message;
  if (!plain.empty() && plain[0] >= 'A' && plain[0] <= 'Z' &&
      !(plain.size() > 1 && plain[1] >= 'A' && plain[1] <= 'Z')) {
    plain[0] = static_cast<char>(plain[0] - 'A' + 'a');
  }
  return plain;
}

int usage_exit_for(const std::vector<CLI::App*>& chain, const Settings& settings) {
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    for (const auto& [name, code] : settings.subcommand_usage_exit) {
      if ((*it)->get_name() == name && (*it)->get_parent() != nullptr) return code;
    }
  }
  return settings.usage_exit;
}

int report(const CLI::App& app, const Report& what, int status) {
  const std::string text = label(&app) + ": " + what.line + "\n" + what.extra;
  std::fwrite(text.data(), 1, text.size(), stderr);
  return status;
}

// The first word nobody took, and the app it was left in; nullopt when there is none. With
// `command_follows` the top-level app's leftovers are the command, unless they start with
// an option.
std::optional<std::pair<CLI::App*, std::string>> first_leftover(const std::vector<CLI::App*>& chain,
                                                                const Settings& settings) {
  for (CLI::App* app : chain) {
    const std::vector<std::string> left = app->remaining(false);
    if (left.empty()) continue;
    if (app == chain.front() && settings.command_follows) {
      const std::string& first = left.front();
      if (first != "--" && first.size() > 1 && first.starts_with('-')) {
        return std::make_pair(app, first);
      }
      continue;
    }
    return std::make_pair(app, left.front());
  }
  return std::nullopt;
}

}  // namespace

void set_usage(CLI::App& app, const std::string& usage) {
  app.formatter(std::make_shared<PlainFormatter>(usage));
}

Parsed parse(CLI::App& app, int argc, const char* const* argv, const Settings& settings) {
  use_plain_formatter(app, settings.usage);
  if (!settings.footer.empty()) app.footer(settings.footer);
  if (settings.command_follows) app.prefix_command();
  Parsed parsed;
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    if (settings.describe) settings.describe(app);
    parsed.exit_status = app.exit(e);
    return parsed;
  } catch (const CLI::ParseError& e) {
    const auto chain = parsed_chain(app);
    const int status = usage_exit_for(chain, settings);
    if (const auto left = first_leftover(chain, settings)) {
      const bool wants_subcommand =
          left->first->get_require_subcommand_min() > 0 && left->first == chain.back();
      parsed.exit_status =
          report(*left->first, unknown_word(*left->first, left->second, wants_subcommand), status);
      return parsed;
    }
    CLI::App* last = chain.back();
    if (last->get_require_subcommand_min() > 0) {
      parsed.exit_status =
          report(*last, {"a subcommand is required", subcommand_listing(*last)}, status);
      return parsed;
    }
    parsed.exit_status = report(*last, {reworded(e), ""}, status);
    return parsed;
  }
  if (settings.command_follows) {
    const auto chain = parsed_chain(app);
    if (const auto left = first_leftover(chain, settings)) {
      parsed.exit_status = report(*left->first, unknown_word(*left->first, left->second, false),
                                  usage_exit_for(chain, settings));
      return parsed;
    }
    parsed.command = app.remaining(false);
    if (!parsed.command.empty() && parsed.command.front() == "--") {
      parsed.command.erase(parsed.command.begin());
    }
  }
  return parsed;
}

CLI::Option* add_state_dir_option(CLI::App& app, std::string& state_dir, std::string_view what,
                                  StateDirDefault fallback) {
  const std::string judged = fallback == StateDirDefault::guard_judged
                                 ? "the one resume-guard judged the caller's dispatch call with, "
                                 : "";
  return app.add_option("--state-dir", state_dir,
                        std::string(what) +
                            " (default: $FLEET_HOOKS_STATE_DIR, $AUTOSKILLIT_STATE_DIR, " + judged +
                            "or <project>/.autoskillit/temp[/<campaign>])");
}

}  // namespace fleet::cli
