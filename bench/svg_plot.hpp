#pragma once
// An SVG line plot of one sweep: median time against the configuration, one line per series,
// a bar from min to max at each point, the fastest point marked. Refused or failed points are
// left out (the table next to it lists them with their errors).
#include <string>

#include "core/tuning/sweep.hpp"

namespace esf::bench {

std::string sweepSvg(const Sweep& sweep, const std::string& title);

}  // namespace esf::bench
