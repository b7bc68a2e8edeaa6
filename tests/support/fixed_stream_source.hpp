#pragma once
// A base for the tests' scripted frame sources: the stream's description (name, size, format)
// is fixed when it is made; the test writes next().
#include <string>
#include <utility>

#include "esframe/source.hpp"

namespace esf::test {

class FixedStreamSource : public FrameSource {
 public:
  FixedStreamSource(std::string name, int width, int height, PixelFormat format)
      : name_(std::move(name)), width_(width), height_(height), format_(format) {}
  std::string name() const override { return name_; }
  int width() const override { return width_; }
  int height() const override { return height_; }
  PixelFormat format() const override { return format_; }

 private:
  std::string name_;
  int width_, height_;
  PixelFormat format_;
};

}  // namespace esf::test
