#pragma once
// The HTTP server's checks of what a client sends (the module only): basic auth against the
// password file, and the Host header of a server without auth.
#include <string>
#include <string_view>
#include <vector>

#include "esframe/base/result.hpp"

namespace esf {

// The password in a password file's text: the file without one trailing LF or CRLF. Empty, or
// holding whitespace or a control character elsewhere (a second line, a trailing space, a NUL),
// it is refused, naming `path` and the byte's offset: such a password could never be typed.
Result<std::string> passwordFromFile(std::string_view text, const std::string& path);

// Whether an Authorization header (null: none) is basic auth with exactly `user` and
// `password`. The credentials are decoded here, not by libmicrohttpd, whose C strings end at a
// NUL: "secret\0junk" is not "secret". Each comparison takes the same time wherever they differ.
bool basicAuthMatches(const char* header, std::string_view user, std::string_view password);

// Whether a Host header (null: none, as HTTP/1.0 allows) names this server: an IP address,
// localhost, this machine's host name (also with ".local"), or one of `allowed_names`; case and
// the header's port aside. Another name is what DNS rebinding sends: a page of that name whose
// address became this server's.
bool hostNamesThisServer(const char* host, const std::vector<std::string>& allowed_names);

}  // namespace esf
