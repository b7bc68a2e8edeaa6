// Built when OpenCV was not found: the OpenCV rows say so instead of showing a time.
#include "bench/peers.hpp"

namespace esf::bench {

namespace {
Error missing() {
  return fail(ErrorCode::kUnsupported,
              "built without OpenCV (install libopencv-dev: setup-debian.sh bench)");
}
}  // namespace

std::string opencvInfo() {
  return "OpenCV: not built in";
}
Result<TimingStats> opencvHistogram(const RgbaImage&, const MeasureOptions&,
                                    std::vector<uint32_t>*) {
  return missing();
}
Result<TimingStats> opencvBlur(const RgbaImage&, int, const MeasureOptions&) {
  return missing();
}
Result<TimingStats> opencvResizeArea(const RgbaImage&, int, int, const MeasureOptions&) {
  return missing();
}

}  // namespace esf::bench
