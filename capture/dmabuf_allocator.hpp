#pragma once
// Zero-copy capture needs buffers the GPU can import, allocated on the GPU's own device. Capture
// knows nothing of GL: whoever owns the GPU (the pipeline) hands a V4L2 source this interface.
// core/import/gbm_dmabuf_allocator.hpp has the GBM-backed one.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "esframe/base/result.hpp"
#include "esframe/base/unique_fd.hpp"

namespace esf {

// Whatever keeps a dmabuf's memory alive besides its fd (a gbm_bo); released with the buffer.
class DmabufMemory {
 public:
  virtual ~DmabufMemory() = default;
};

// One linear buffer: its dmabuf, the allocation behind it, and its layout.
struct DmabufBuffer {
  UniqueFd fd;
  std::unique_ptr<DmabufMemory> memory;  // the allocation; fd holds its own reference
  size_t stride = 0;                     // bytes per row, as allocated (>= the asked row bytes)
  size_t length = 0;                     // stride * rows
  uint64_t modifier = 0x00ffffffffffffffull;  // DRM_FORMAT_MOD_INVALID: unknown
};

class DmabufAllocator {
 public:
  virtual ~DmabufAllocator() = default;
  // A linear buffer of at least `bytes_per_row` x `rows` bytes.
  virtual Result<DmabufBuffer> allocate(size_t bytes_per_row, int rows) = 0;
  // The device buffers come from ("/dev/dri/card0"), for messages.
  virtual std::string deviceName() const = 0;
  // Whether the GPU may import dmabufs it did not allocate (V4L2 exported buffers). False on
  // Mesa's llvmpipe, which crashes sampling them.
  virtual bool importsForeignDmabufs() const = 0;
};

// Expbuf I/O (a camera's or a decoder's own dmabufs, imported by the GPU) needs an allocator's
// device to import into, and a GPU that imports foreign dmabufs: `what` names the source,
// `instead` the I/O modes to use otherwise.
inline Status checkExpbufImport(const DmabufAllocator* allocator, const std::string& what,
                                const char* instead) {
  if (!allocator)
    return fail(ErrorCode::kUnsupported, what,
                ": expbuf I/O needs the GPU's DRM device to import into; none was given");
  if (!allocator->importsForeignDmabufs())
    // Mesa's llvmpipe crashes sampling a dmabuf it did not allocate.
    return fail(ErrorCode::kUnsupported, what,
                ": expbuf I/O is refused: this GPU cannot import foreign dmabufs safely "
                "(llvmpipe crashes); use ",
                instead, " I/O");
  return {};
}

}  // namespace esf
