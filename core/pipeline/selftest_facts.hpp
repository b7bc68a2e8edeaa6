#pragma once
// The driver facts `esframe selftest` reports beside its checks: the compute limits against the
// defaults' target (v3d), whether timer queries time compute, a zero-copy import of a GBM
// dmabuf checked against the reference, and program binaries (the program cache).
#include <vector>

#include "core/pipeline/selftest.hpp"
#include "esframe/frame_result.hpp"

namespace esf {

// `timings`: what the checks' GPU frames reported (the timer-query fact reads them).
std::vector<SelftestFact> driverFacts(GlContext& gl, const std::vector<StageTiming>& timings);

}  // namespace esf
