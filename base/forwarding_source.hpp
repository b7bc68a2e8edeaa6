#pragma once
// A FrameSource that wraps another and hands every question on to it: a wrapper overrides only
// what it adds to (next(), where it guards or copies the frames).
#include <memory>
#include <utility>

#include "base/source_outages.hpp"
#include "esframe/source.hpp"

namespace esf {

class ForwardingSource : public FrameSource, public OutageReporting {
 public:
  explicit ForwardingSource(std::unique_ptr<FrameSource> inner) : inner_(std::move(inner)) {}
  Result<std::optional<Frame>> next() override { return inner_->next(); }
  std::string name() const override { return inner_->name(); }
  bool isLive() const override { return inner_->isLive(); }
  bool deviceLost() const override { return inner_->deviceLost(); }
  int width() const override { return inner_->width(); }
  int height() const override { return inner_->height(); }
  PixelFormat format() const override { return inner_->format(); }
  std::string ioDescription() const override { return inner_->ioDescription(); }
  void setOutageHooks(OutageHooks hooks) override {
    if (auto* outages = dynamic_cast<OutageReporting*>(inner_.get()))
      outages->setOutageHooks(std::move(hooks));
  }

 protected:
  FrameSource& inner() { return *inner_; }
  const FrameSource& inner() const { return *inner_; }

 private:
  std::unique_ptr<FrameSource> inner_;
};

}  // namespace esf
