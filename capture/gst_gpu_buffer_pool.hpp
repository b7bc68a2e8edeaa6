#pragma once
// A GstBufferPool of the GPU's own buffers (DmabufAllocator: GBM on the EGL display's device), for
// a decoder to decode into: V4L2 decoders in capture-io-mode=dmabuf-import fill them as a V4L2
// camera fills them in --io dmabuf, and the GPU imports them as its own, which a GPU that cannot
// import foreign dmabufs (Mesa's llvmpipe) still does. Compiled into libesframe-network.so only.
#include <gst/gst.h>
#include <gst/video/video.h>

#include "capture/dmabuf_allocator.hpp"

namespace esf::gst {

// A pool of one dmabuf memory a buffer, laid out as `info` says (a GstVideoMeta with its offsets
// and strides), each buffer a linear allocation of `allocator` (which outlives the pool);
// configured for `caps` with at least `min_buffers`. Null when the caps' layout cannot be
// allocated. The caller owns the reference.
GstBufferPool* newGpuBufferPool(DmabufAllocator& allocator, const GstVideoInfo& info,
                                GstCaps* caps, guint min_buffers);

}  // namespace esf::gst
