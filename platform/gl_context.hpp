#pragma once
// A GLES 3.1+ context with no surface, current on the creating thread. Everything GPU in
// esframe starts here: GlContext::create(options).
#include <GLES3/gl31.h>

#include <memory>
#include <string>

#include "esframe/gpu.hpp"  // ComputeLimits
#include "platform/egl_display.hpp"

namespace esf {

struct GlContextOptions {
  EglOptions egl;
  bool debug = false;  // GL_KHR_debug messages to the log
};

// The options of a GpuConfig (esframe/pipeline_config.hpp).
GlContextOptions glContextOptions(const GpuConfig& gpu);

class GlContext {
 public:
  static Result<std::unique_ptr<GlContext>> create(const GlContextOptions& options);
  ~GlContext();
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;

  EglDisplay& display() const { return *display_; }
  EGLContext eglContext() const { return context_; }
  Status makeCurrent() const;

  std::string renderer() const;  // GL_RENDERER
  std::string version() const;   // GL_VERSION
  std::string glVendor() const;  // GL_VENDOR
  int glMajor() const { return gl_major_; }
  int glMinor() const { return gl_minor_; }
  // What esframe may ask of the driver: its own figures, or under ESFRAME_GL_LIMITS=gles31-min
  // the GLES 3.1 minimums (platform/gl_spec_limits.hpp).
  const ComputeLimits& limits() const { return limits_; }
  bool specMinimumLimits() const { return spec_minimums_; }
  bool hasGlExtension(const char* name) const;
  bool robustAccess() const { return robust_; }
  // A GPU reset loses this context (EGL_LOSE_CONTEXT_ON_RESET): the reset status reports it.
  bool losesContextOnReset() const { return lose_context_on_reset_; }
  bool isLlvmpipe() const;  // Mesa's software rasterizer: some import paths crash there
  bool hasTimerQuery() const { return hasGlExtension("GL_EXT_disjoint_timer_query"); }

 private:
  GlContext() = default;
  std::unique_ptr<EglDisplay> display_;
  EGLContext context_ = EGL_NO_CONTEXT;
  int gl_major_ = 0, gl_minor_ = 0;
  bool robust_ = false;
  bool lose_context_on_reset_ = false;
  bool spec_minimums_ = false;
  ComputeLimits limits_;
};

// glGetError as a name, for messages.
const char* glErrorString(GLenum error);
// Returns an Error naming `what` if glGetError reports one (and drains the queue).
Status checkGl(const char* what);

}  // namespace esf
