#pragma once
// The GL context inside the public GpuContext (esframe/gpu.hpp), for the library's own code.
#include <memory>

#include "esframe/gpu.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct GpuContext::Impl {
  GpuConfig config;
  std::unique_ptr<GlContext> gl;
};

struct GpuContextAccess {
  static GlContext& gl(GpuContext& gpu) { return *gpu.impl_->gl; }
};

}  // namespace esf
