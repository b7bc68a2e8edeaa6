#pragma once
// Names for the codes that C APIs hand back (GL and EGL errors, DRM plane types, V4L2 control
// types): one lookup over a table, so each list of names is data and a code outside it gets the
// caller's fallback.
#include <cstdint>
#include <span>

namespace esf {

struct CodeName {
  int64_t code;
  const char* name;
};

// A table entry named as the code is spelled in its header: ESF_CODE_NAME(GL_OUT_OF_MEMORY).
#define ESF_CODE_NAME(code) \
  ::esf::CodeName {         \
    int64_t(code), #code    \
  }

// The name of `code` in `names`, or `unknown`.
constexpr const char* codeName(int64_t code, std::span<const CodeName> names, const char* unknown) {
  for (const CodeName& n : names)
    if (n.code == code) return n.name;
  return unknown;
}

}  // namespace esf
