#include "base/ids.h"

#include "base/error.h"
#include "platform/system_facts.h"

namespace fleet {
namespace {

bool is_id_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '.':
    case '_':
    case ':':
    case '@':
    case '+':
    case '=':
    case '-':
      return true;
    default:
      return false;
  }
}

bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::string quoted(std::string_view value) {
  std::string out = "'";
  for (char c : value.substr(0, 64)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      out += '?';
    } else {
      out += c;
    }
  }
  if (value.size() > 64) out += "...";
  out += "'";
  return out;
}

}  // namespace

std::optional<std::string> id_problem(std::string_view what, std::string_view id) {
  const std::string name(what);
  if (id.empty()) return name + " is empty";
  if (id.size() > kMaxIdLength) {
    return name + " is " + std::to_string(id.size()) + " bytes long; the limit is " +
           std::to_string(kMaxIdLength);
  }
  for (char c : id) {
    if (!is_id_char(c)) {
      return name + " " + quoted(id) +
             " contains a character outside [A-Za-z0-9._:@+=-] (ids become file names)";
    }
  }
  if (id.front() == '.' || id.front() == '-') {
    return name + " " + quoted(id) + " must not start with '.' or '-'";
  }
  if (id.find("..") != std::string_view::npos) {
    return name + " " + quoted(id) + " must not contain '..'";
  }
  return std::nullopt;
}

bool is_valid_id(std::string_view id) {
  return !id_problem("id", id);
}

std::optional<std::string> label_problem(std::string_view what, std::string_view label) {
  const std::string name(what);
  if (label.size() > kMaxLabelLength) {
    return name + " is " + std::to_string(label.size()) + " bytes long; the limit is " +
           std::to_string(kMaxLabelLength);
  }
  for (char c : label) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return name + " " + quoted(label) + " contains a control byte";
  }
  return std::nullopt;
}

bool is_uuid(std::string_view id) {
  if (id.size() != 36) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const bool dash_position = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash_position ? id[i] != '-' : !is_hex(id[i])) return false;
  }
  return true;
}

std::string new_uuid_v4() {
  unsigned char bytes[16];
  if (!platform::fill_random(bytes, sizeof bytes)) throw_errno("cannot generate a session id");
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 0x0f];
  }
  return out;
}

std::string new_random_hex(std::size_t size) {
  std::string bytes(size, '\0');
  if (!platform::fill_random(reinterpret_cast<unsigned char*>(bytes.data()), size))
    throw_errno("cannot read random bytes");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * size);
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += kHex[b >> 4];
    out += kHex[b & 0x0f];
  }
  return out;
}

}  // namespace fleet
