// The OpenCV peers (compiled only when find_package(OpenCV) found it).
#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include "bench/peers.hpp"

namespace esf::bench {
namespace {

// A header over the frame's pixels, no copy.
cv::Mat wrap(const RgbaImage& f) {
  return cv::Mat(f.height, f.width, CV_8UC4, const_cast<uint8_t*>(f.pixels.data()));
}

}  // namespace

std::string opencvInfo() {
  return std::string("OpenCV ") + CV_VERSION + ", " + std::to_string(cv::getNumThreads()) +
         " threads";
}

Result<TimingStats> opencvHistogram(const RgbaImage& frame, const MeasureOptions& o,
                                    std::vector<uint32_t>* rgb_counts) {
  cv::Mat src = wrap(frame);
  cv::Mat hist[4], gray;
  const int size = 256;
  const float range[] = {0, 256};
  const float* ranges[] = {range};
  auto once = [&]() -> Status {
    for (int c = 0; c < 3; ++c) {
      int channel = c;
      cv::calcHist(&src, 1, &channel, cv::Mat(), hist[c], 1, &size, ranges);
    }
    cv::cvtColor(src, gray, cv::COLOR_RGBA2GRAY);
    int channel = 0;
    cv::calcHist(&gray, 1, &channel, cv::Mat(), hist[3], 1, &size, ranges);
    return {};
  };
  Result<TimingStats> t = measureWall(o, once);
  if (t && rgb_counts) {
    rgb_counts->assign(256 * 3, 0);
    for (int bin = 0; bin < 256; ++bin)
      for (int c = 0; c < 3; ++c) (*rgb_counts)[bin * 3 + c] = uint32_t(hist[c].at<float>(bin));
  }
  return t;
}

Result<TimingStats> opencvBlur(const RgbaImage& frame, int ksize, const MeasureOptions& o) {
  cv::Mat src = wrap(frame), dst;
  return measureWall(o, [&]() -> Status {
    cv::blur(src, dst, cv::Size(ksize, ksize), cv::Point(-1, -1), cv::BORDER_REPLICATE);
    return {};
  });
}

Result<TimingStats> opencvResizeArea(const RgbaImage& frame, int w, int h,
                                     const MeasureOptions& o) {
  cv::Mat src = wrap(frame), dst;
  return measureWall(o, [&]() -> Status {
    cv::resize(src, dst, cv::Size(w, h), 0, 0, cv::INTER_AREA);
    return {};
  });
}

}  // namespace esf::bench
