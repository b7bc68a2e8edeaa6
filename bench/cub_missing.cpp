// Built when nvcc was not found: the CUB row says so instead of showing a time.
#include "bench/peers.hpp"

namespace esf::bench {

std::string cubInfo() {
  return "CUB: not built in (no nvcc at configure time)";
}
Result<TimingStats> cubHistogram(const RgbaImage&, const MeasureOptions&, std::vector<uint32_t>*) {
  return fail(ErrorCode::kUnsupported, "CUB peer not built in (no nvcc at configure time)");
}

}  // namespace esf::bench
