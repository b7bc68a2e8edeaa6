#include "core/outputs/http_auth.hpp"

#include <arpa/inet.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>

namespace esf {
namespace {

// Looks at every byte of `given`, NUL included, without an early exit: the time taken depends on
// `given`'s length only, never on where it differs from `expected`.
bool equalInConstantTime(std::string_view given, std::string_view expected) {
  unsigned diff = given.size() != expected.size() ? 1u : 0u;
  for (size_t i = 0; i < given.size(); ++i) {
    const uint8_t e = i < expected.size() ? uint8_t(expected[i]) : 0;
    diff |= uint8_t(given[i]) ^ e;
  }
  return diff == 0;
}

std::optional<std::string> decodeBase64(std::string_view text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const int v = value(c);
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | uint32_t(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(char((bits >> count) & 0xff));
    }
  }
  return out;
}

bool equalIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(uint8_t(x)) == std::tolower(uint8_t(y));
         });
}

}  // namespace

Result<std::string> passwordFromFile(std::string_view text, const std::string& path) {
  if (text.ends_with("\r\n"))
    text.remove_suffix(2);
  else if (text.ends_with("\n"))
    text.remove_suffix(1);
  if (text.empty())
    return fail(ErrorCode::kInvalidArgument, "HTTP sink: password file ", path,
                " holds no password");
  for (size_t i = 0; i < text.size(); ++i) {
    const uint8_t c = uint8_t(text[i]);
    if (c <= ' ' || c == 0x7f)
      return fail(ErrorCode::kInvalidArgument, "HTTP sink: password file ", path, " has ",
                  c == ' ' ? "a space" : "a control character", " at byte ", std::to_string(i),
                  ": the password is one line of printable characters, ended by a newline or not");
  }
  return std::string(text);
}

bool basicAuthMatches(const char* header, std::string_view user, std::string_view password) {
  if (!header) return false;
  std::string_view h = header;
  const size_t space = h.find(' ');
  if (space == std::string_view::npos || !equalIgnoringCase(h.substr(0, space), "Basic"))
    return false;
  h.remove_prefix(space);
  while (!h.empty() && h.front() == ' ') h.remove_prefix(1);
  const std::optional<std::string> pair = decodeBase64(h);
  if (!pair) return false;
  const size_t colon = pair->find(':');
  if (colon == std::string::npos) return false;
  const std::string_view both = *pair;
  // Both compared whatever the first says, so the time tells nothing of which one is wrong.
  const bool user_ok = equalInConstantTime(both.substr(0, colon), user);
  const bool password_ok = equalInConstantTime(both.substr(colon + 1), password);
  return user_ok & password_ok;
}

bool hostNamesThisServer(const char* host, const std::vector<std::string>& allowed_names) {
  if (!host) return true;
  std::string_view name = host;
  if (name.starts_with('[')) {  // an IPv6 address, with or without a port
    const size_t end = name.find(']');
    if (end == std::string_view::npos) return false;
    const std::string address(name.substr(1, end - 1));
    in6_addr v6;
    return ::inet_pton(AF_INET6, address.c_str(), &v6) == 1;
  }
  if (const size_t colon = name.rfind(':'); colon != std::string_view::npos)
    name = name.substr(0, colon);
  if (name.ends_with('.')) name.remove_suffix(1);
  const std::string text(name);
  in_addr v4;
  if (::inet_pton(AF_INET, text.c_str(), &v4) == 1) return true;
  if (equalIgnoringCase(name, "localhost")) return true;
  for (std::string_view allowed : allowed_names) {
    if (allowed.ends_with('.')) allowed.remove_suffix(1);
    if (equalIgnoringCase(name, allowed)) return true;
  }
  char self[256] = {};
  if (::gethostname(self, sizeof self - 1) != 0 || self[0] == '\0') return false;
  const std::string_view machine = self;
  return equalIgnoringCase(name, machine) ||
         (name.size() == machine.size() + 6 && name.ends_with(".local") &&
          equalIgnoringCase(name.substr(0, machine.size()), machine));
}

}  // namespace esf
