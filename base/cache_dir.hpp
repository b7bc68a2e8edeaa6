#pragma once
// esframe's per-user cache folder, shared by the tuning cache (tuning.json) and the program
// binary cache (programs/): $XDG_CACHE_HOME/esframe, else $HOME/.cache/esframe (the XDG base
// directory spec: a relative XDG_CACHE_HOME is invalid and ignored), else /tmp/.cache/esframe.
#include <string>

#include "esframe/base/result.hpp"

namespace esf {

std::string esframeCacheDir();

// mkdir -p with mode 0755; fails naming the folder that could not be made.
Status makeDirectories(const std::string& dir);

}  // namespace esf
