#pragma once
// The DmabufAllocator zero-copy capture uses: linear GBM buffers on the DRM device EGL renders
// with, so the GPU imports what the camera writes.
#include <memory>

#include "capture/dmabuf_allocator.hpp"
#include "esframe/base/result.hpp"

namespace esf {

class GlContext;

// Allocates on EGL's own GBM device, or on a GBM device opened on EGL's DRM node (EGL on the
// device platform). Fails (kUnsupported) when the display has no DRM node (surfaceless EGL).
// `gl` must outlive the allocator, and the allocator every buffer it made.
Result<std::unique_ptr<DmabufAllocator>> createGbmDmabufAllocator(const GlContext& gl);

}  // namespace esf
