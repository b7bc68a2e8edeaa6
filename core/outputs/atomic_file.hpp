#pragma once
// Whole-file writes that a reader never sees half done: the bytes go to PATH.tmp, then rename(2)
// puts them in place (PNG frames and graphs, the Prometheus textfile).
#include <string>
#include <string_view>

#include "esframe/base/result.hpp"

namespace esf {

// Mode 0644. On failure the temporary file is removed and `path` is left as it was.
Status writeFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace esf
