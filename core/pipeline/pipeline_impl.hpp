#pragma once
// What a Pipeline owns. Internal: sinks inside the library (the DRM sink) draw with its GL context.
#include <memory>

#include "core/pipeline/pipeline_backend.hpp"
#include "esframe/pipeline.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct Pipeline::Impl {
  PipelineConfig config;
  std::unique_ptr<GlContext> gl;  // kGles; declared first so it outlives the backend
  std::unique_ptr<PipelineBackend> backend;
};

}  // namespace esf
