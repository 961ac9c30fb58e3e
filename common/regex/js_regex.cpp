#include "regex/js_regex.h"

#include <cstdint>
#include <string>
#include <vector>

#include "regex/js_regex_syntax.h"

namespace fleet {
namespace {

using js_regex::CharSet;
using js_regex::is_word;
using js_regex::kInfinite;
using js_regex::Node;

constexpr std::size_t kMaxProgram = 20000;  // instructions

struct Instruction {
  enum Op { chars, split, jump, bol, eol, word_boundary, not_word_boundary, match };
  Op op = match;
  std::size_t x = 0;  // chars: the set; split/jump: the target
  std::size_t y = 0;  // split: the second target
};

// True when `node` compiles to no instruction: an empty sequence, or a repetition of one.
bool compiles_to_nothing(const Node& node) {
  if (node.kind == Node::repeat) {
    return node.max == 0 || compiles_to_nothing(node.children.front());
  }
  if (node.kind != Node::sequence) return false;
  for (const Node& child : node.children) {
    if (!compiles_to_nothing(child)) return false;
  }
  return true;
}

class Program {
 public:
  bool compile(const Node& root) {
    if (!emit(root)) return false;
    return push({Instruction::match, 0, 0});
  }

  bool search(std::string_view subject) const {
    std::vector<std::size_t> current;
    std::vector<std::size_t> next;
    std::vector<std::size_t> stack;
    std::vector<std::size_t> mark(code_.size(), 0);
    std::size_t generation = 1;
    bool matched = false;
    auto add = [&](std::vector<std::size_t>& list, std::size_t pc, std::size_t pos) {
      const bool before = pos > 0 && is_word(static_cast<unsigned char>(subject[pos - 1]));
      const bool after = pos < subject.size() && is_word(static_cast<unsigned char>(subject[pos]));
      stack.push_back(pc);
      while (!stack.empty()) {
        const std::size_t at = stack.back();
        stack.pop_back();
        if (mark[at] == generation) continue;
        mark[at] = generation;
        const Instruction& in = code_[at];
        switch (in.op) {
          case Instruction::jump:
            stack.push_back(in.x);
            break;
          case Instruction::split:
            stack.push_back(in.y);
            stack.push_back(in.x);
            break;
          case Instruction::bol:
            if (pos == 0) stack.push_back(at + 1);
            break;
          case Instruction::eol:
            if (pos == subject.size()) stack.push_back(at + 1);
            break;
          case Instruction::word_boundary:
            if (before != after) stack.push_back(at + 1);
            break;
          case Instruction::not_word_boundary:
            if (before == after) stack.push_back(at + 1);
            break;
          case Instruction::match:
            matched = true;
            break;
          case Instruction::chars:
            list.push_back(at);
            break;
        }
      }
    };
    add(current, 0, 0);
    for (std::size_t pos = 0; !matched && pos < subject.size(); ++pos) {
      ++generation;
      next.clear();
      const auto c = static_cast<unsigned char>(subject[pos]);
      for (const std::size_t pc : current) {
        if (sets_[code_[pc].x].test(c)) add(next, pc + 1, pos + 1);
      }
      add(next, 0, pos + 1);  // a match may start at every position
      current.swap(next);
    }
    return matched;
  }

 private:
  bool push(Instruction in) {
    if (code_.size() >= kMaxProgram) return false;
    code_.push_back(in);
    return true;
  }

  bool emit(const Node& node) {
    switch (node.kind) {
      case Node::chars:
        sets_.push_back(node.set);
        return push({Instruction::chars, sets_.size() - 1, 0});
      case Node::bol:
        return push({Instruction::bol, 0, 0});
      case Node::eol:
        return push({Instruction::eol, 0, 0});
      case Node::word_boundary:
        return push({Instruction::word_boundary, 0, 0});
      case Node::not_word_boundary:
        return push({Instruction::not_word_boundary, 0, 0});
      case Node::sequence:
        for (const Node& child : node.children) {
          if (!emit(child)) return false;
        }
        return true;
      case Node::alternation: {
        std::vector<std::size_t> exits;
        for (std::size_t k = 0; k < node.children.size(); ++k) {
          const bool last = k + 1 == node.children.size();
          const std::size_t split = code_.size();
          if (!last && !push({Instruction::split, split + 1, 0})) return false;
          if (!emit(node.children[k])) return false;
          if (!last) {
            exits.push_back(code_.size());
            if (!push({Instruction::jump, 0, 0})) return false;
            code_[split].y = code_.size();
          }
        }
        for (const std::size_t exit : exits) code_[exit].x = code_.size();
        return true;
      }
      case Node::repeat: {
        const Node& child = node.children.front();
        if (compiles_to_nothing(child)) return true;  // an empty child repeated is empty
        for (std::uint64_t k = 0; k < node.min; ++k) {
          if (!emit(child)) return false;
        }
        if (node.max == kInfinite) {
          const std::size_t loop = code_.size();
          if (!push({Instruction::split, loop + 1, 0}) || !emit(child) ||
              !push({Instruction::jump, loop, 0})) {
            return false;
          }
          code_[loop].y = code_.size();
          return true;
        }
        std::vector<std::size_t> skips;
        for (std::uint64_t k = node.min; k < node.max; ++k) {
          skips.push_back(code_.size());
          if (!push({Instruction::split, code_.size() + 1, 0}) || !emit(child)) return false;
        }
        for (const std::size_t skip : skips) code_[skip].y = code_.size();
        return true;
      }
    }
    return false;
  }

  std::vector<Instruction> code_;
  std::vector<CharSet> sets_;
};

}  // namespace

RegexSearch regex_search(std::string_view pattern, std::string_view subject) {
  const js_regex::Parsed parsed = js_regex::parse(pattern);
  switch (parsed.status) {
    case js_regex::Status::invalid:
      return RegexSearch::invalid;
    case js_regex::Status::unsupported:
      return RegexSearch::unsupported;
    case js_regex::Status::ok:
      break;
  }
  Program program;
  if (!program.compile(parsed.root)) return RegexSearch::unsupported;  // past kMaxProgram
  return program.search(subject) ? RegexSearch::match : RegexSearch::no_match;
}

}  // namespace fleet
