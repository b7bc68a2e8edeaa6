#include "capture/gst_gpu_buffer_pool.hpp"

#include <gst/allocators/gstdmabuf.h>

#include <algorithm>
#include <memory>

namespace esf::gst {
namespace {

struct GpuBufferPool {
  GstBufferPool parent;
  DmabufAllocator* allocator;
  GstAllocator* dmabuf;  // wraps each buffer's fd as a GstDmaBufMemory
  GstVideoInfo info;
};

struct GpuBufferPoolClass {
  GstBufferPoolClass parent_class;
};

GType gpuBufferPoolType();

GpuBufferPool* asPool(gpointer object) {
  return G_TYPE_CHECK_INSTANCE_CAST(object, gpuBufferPoolType(), GpuBufferPool);
}

// The allocation behind a memory (a gbm_bo) lives as long as the memory: the fd alone keeps the
// dmabuf, not the GPU's buffer object.
GQuark allocationQuark() {
  static const GQuark quark = g_quark_from_static_string("esframe-gpu-allocation");
  return quark;
}

void freeAllocation(gpointer data) { delete static_cast<DmabufMemory*>(data); }

GstFlowReturn allocBuffer(GstBufferPool* base, GstBuffer** out, GstBufferPoolAcquireParams*) {
  GpuBufferPool* pool = asPool(base);
  GstVideoInfo info = pool->info;  // gst_buffer_add_video_meta_full takes its arrays non-const
  // One linear buffer of the frame's size, rows of the first plane's stride, as the V4L2
  // source allocates for a single-planar format: the decoder writes its own layout into it.
  const size_t size = GST_VIDEO_INFO_SIZE(&info);
  const size_t pitch = size_t(std::max(GST_VIDEO_INFO_PLANE_STRIDE(&info, 0), 1));
  Result<DmabufBuffer> allocated = pool->allocator->allocate(pitch, int((size + pitch - 1) / pitch));
  if (!allocated) {
    GST_ERROR_OBJECT(base, "%s", allocated.error().message.c_str());
    return GST_FLOW_ERROR;
  }
  // GstDmaBufMemory owns the fd it is given from here on.
  GstMemory* memory =
      gst_dmabuf_allocator_alloc(pool->dmabuf, allocated->fd.release(), allocated->length);
  if (!memory) return GST_FLOW_ERROR;
  gst_mini_object_set_qdata(GST_MINI_OBJECT(memory), allocationQuark(),
                            allocated->memory.release(), &freeAllocation);
  GstBuffer* buffer = gst_buffer_new();
  gst_buffer_append_memory(buffer, memory);
  GstVideoMeta* meta = gst_buffer_add_video_meta_full(
      buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&info), GST_VIDEO_INFO_WIDTH(&info),
      GST_VIDEO_INFO_HEIGHT(&info), GST_VIDEO_INFO_N_PLANES(&info), info.offset, info.stride);
  // Kept across the pool's reset of a returned buffer, which drops metas not marked so.
  GST_META_FLAGS(meta) = GstMetaFlags(GST_META_FLAGS(meta) | GST_META_FLAG_POOLED);
  *out = buffer;
  return GST_FLOW_OK;
}

void finalizePool(GObject* object) {
  gst_object_unref(asPool(object)->dmabuf);
  G_OBJECT_CLASS(g_type_class_peek_parent(G_OBJECT_GET_CLASS(object)))->finalize(object);
}

void classInit(gpointer klass, gpointer) {
  G_OBJECT_CLASS(klass)->finalize = &finalizePool;
  GST_BUFFER_POOL_CLASS(klass)->alloc_buffer = &allocBuffer;
}

GType gpuBufferPoolType() {
  static const GType type = g_type_register_static_simple(
      GST_TYPE_BUFFER_POOL, "EsframeGpuBufferPool", sizeof(GpuBufferPoolClass), &classInit,
      sizeof(GpuBufferPool), nullptr, GTypeFlags(0));
  return type;
}

}  // namespace

GstBufferPool* newGpuBufferPool(DmabufAllocator& allocator, const GstVideoInfo& info,
                                GstCaps* caps, guint min_buffers) {
  if (GST_VIDEO_INFO_SIZE(&info) == 0) return nullptr;
  GpuBufferPool* pool = asPool(g_object_new(gpuBufferPoolType(), nullptr));
  gst_object_ref_sink(pool);
  pool->allocator = &allocator;
  pool->dmabuf = gst_dmabuf_allocator_new();
  pool->info = info;
  GstBufferPool* base = GST_BUFFER_POOL(pool);
  GstStructure* config = gst_buffer_pool_get_config(base);
  gst_buffer_pool_config_set_params(config, caps, guint(GST_VIDEO_INFO_SIZE(&info)), min_buffers,
                                    0);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config(base, config)) {
    gst_object_unref(base);
    return nullptr;
  }
  return base;
}

}  // namespace esf::gst
