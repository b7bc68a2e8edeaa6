#pragma once
// One interface for every frame source: V4L2 cameras, still images, Y4M and raw video, and the
// synthetic pattern. `openSource(spec, options)` picks the kind from the spec:
//   "pattern" (or "")          the synthetic moving pattern (the default source)
//   "/dev/videoN"              a V4L2 capture device by path
//   a card name or bus info    a V4L2 device whose VIDIOC_QUERYCAP card/bus_info matches
//   FILE.y4m / YUV4MPEG2 data  Y4M video
//   "-" or a named pipe        a stream read once: Y4M if it starts with "YUV4MPEG2", else raw
//                              frames (needs the size and format)
//   FILE.png|jpg|bmp|pgm|ppm   one still image; a directory, a glob ("shots/*.png") or a
//                              comma-separated list of images is a sequence
//   any other file             headerless raw frames; needs options.width/height and format
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"
#include "esframe/source.hpp"

namespace esf {

class DmabufAllocator;

// What the capture layer needs beside the public SourceConfig.
struct SourceOptions : SourceConfig {
  // Zero-copy needs the GPU's device: dmabuf mode allocates with this, expbuf mode asks it
  // whether the GPU imports foreign dmabufs. Null: mmap only. It must outlive the source.
  DmabufAllocator* dmabuf_allocator = nullptr;
};

// "name=value" of a V4L2 control (v4l2-ctl names).
Result<std::pair<std::string, std::string>> parseCtrl(const std::string& text);

// Whether openSource() takes `spec` for a V4L2 camera (a /dev path, a card name, bus info).
bool isV4l2Spec(const std::string& spec);

Result<std::unique_ptr<FrameSource>> openSource(const std::string& spec,
                                                const SourceOptions& options);

}  // namespace esf
