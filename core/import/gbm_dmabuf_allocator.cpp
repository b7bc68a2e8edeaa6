#include "core/import/gbm_dmabuf_allocator.hpp"

#include <gbm.h>

#include <algorithm>
#include <string>

#include "esframe/base/sizes.hpp"

#include "platform/gbm_device.hpp"
#include "platform/gl_context.hpp"

namespace esf {
namespace {

class GbmBufferMemory : public DmabufMemory {
 public:
  explicit GbmBufferMemory(gbm_bo* bo) : bo_(bo) {}
  ~GbmBufferMemory() override { gbm_bo_destroy(bo_); }
  GbmBufferMemory(const GbmBufferMemory&) = delete;
  GbmBufferMemory& operator=(const GbmBufferMemory&) = delete;

 private:
  gbm_bo* bo_;
};

class GbmDmabufAllocator : public DmabufAllocator {
 public:
  GbmDmabufAllocator(gbm_device* gbm, std::unique_ptr<GbmDevice> own_gbm, std::string node,
                     bool imports_foreign)
      : own_gbm_(std::move(own_gbm)),
        gbm_(gbm),
        node_(std::move(node)),
        imports_foreign_(imports_foreign) {}

  Result<DmabufBuffer> allocate(size_t bytes_per_row, int rows) override {
    // A capture buffer holds one frame: within kMaxFrameBytes, so the pitch fits 32 bits.
    if (Result<size_t> s = frameBufferSize("GBM buffer on " + node_, bytes_per_row, rows); !s)
      return s.error();
    // R8 is one byte per texel, so the buffer is exactly bytes_per_row wide; drivers without
    // R8 scanout-less buffers take ARGB8888 a quarter as wide.
    const uint32_t pitch = uint32_t(std::max<size_t>(bytes_per_row, 1));
    gbm_bo* bo = gbm_bo_create(gbm_, pitch, uint32_t(rows), GBM_FORMAT_R8, GBM_BO_USE_LINEAR);
    if (!bo)
      bo = gbm_bo_create(gbm_, (pitch + 3) / 4, uint32_t(rows), GBM_FORMAT_ARGB8888,
                         GBM_BO_USE_LINEAR);
    if (!bo)
      // Mesa's software GBM (kms_swrast) allocates dumb buffers, which render nodes refuse;
      // its imports of another node's buffers crash, so EGL itself must sit on the card node.
      return fail(ErrorCode::kUnsupported, "GBM on ", node_, " cannot allocate a ",
                  std::to_string(pitch), "x", std::to_string(rows),
                  "-byte buffer (with Mesa's software GBM, EGL must use a card node "
                  "/dev/dri/cardN)");
    DmabufBuffer b;
    b.memory = std::make_unique<GbmBufferMemory>(bo);
    b.fd = UniqueFd(gbm_bo_get_fd(bo));
    if (!b.fd.valid())
      return fail(ErrorCode::kGpu, "GBM on ", node_, ": cannot export a buffer as dmabuf");
    b.stride = gbm_bo_get_stride(bo);
    Result<size_t> length = frameBufferSize("GBM buffer on " + node_, b.stride, rows);
    if (!length) return length.error();
    b.length = *length;
    b.modifier = gbm_bo_get_modifier(bo);
    return b;
  }
  std::string deviceName() const override { return node_; }
  bool importsForeignDmabufs() const override { return imports_foreign_; }

 private:
  std::unique_ptr<GbmDevice> own_gbm_;  // when EGL is not on GBM: outlives every gbm_ use
  gbm_device* gbm_;
  std::string node_;
  bool imports_foreign_;
};

}  // namespace

Result<std::unique_ptr<DmabufAllocator>> createGbmDmabufAllocator(const GlContext& gl) {
  const EglDisplay& display = gl.display();
  const std::string node = display.drmNodePath();
  // Mesa 22.3 llvmpipe crashes sampling a dmabuf it did not allocate.
  const bool imports_foreign = !gl.isLlvmpipe();
  if (display.gbm())
    return std::unique_ptr<DmabufAllocator>(
        new GbmDmabufAllocator(display.gbm()->get(), nullptr, node, imports_foreign));
  if (node.empty())
    return fail(ErrorCode::kUnsupported,
                "zero-copy buffers need EGL on a DRM device (GBM); this EGL display has none");
  auto opened = openDrmPath(node);
  if (!opened) return opened.error();
  auto gbm = GbmDevice::create(std::move(*opened));
  if (!gbm) return gbm.error();
  gbm_device* device = (*gbm)->get();
  return std::unique_ptr<DmabufAllocator>(
      new GbmDmabufAllocator(device, std::move(*gbm), node, imports_foreign));
}

}  // namespace esf
