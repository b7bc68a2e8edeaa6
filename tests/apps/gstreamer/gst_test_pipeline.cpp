#include "tests/apps/gstreamer/gst_test_pipeline.hpp"

#include <gst/allocators/gstdmabuf.h>
#include <gst/video/video.h>
#include <sys/mman.h>
#include <unistd.h>

namespace esf::test {

std::vector<uint8_t> bufferBytes(GstBuffer* buffer) {
  GstMapInfo map;
  EXPECT_TRUE(gst_buffer_map(buffer, &map, GST_MAP_READ));
  std::vector<uint8_t> bytes(map.data, map.data + map.size);
  gst_buffer_unmap(buffer, &map);
  return bytes;
}

Reference countValues(GstBuffer* buffer, GstPad* pad) {
  Reference ref;
  GstCaps* caps = gst_pad_get_current_caps(pad);
  GstVideoInfo info;
  EXPECT_TRUE(gst_video_info_from_caps(&info, caps));
  gst_caps_unref(caps);
  GstVideoFrame frame;
  EXPECT_TRUE(gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ));
  const bool rgb = GST_VIDEO_INFO_IS_RGB(&info);
  auto sample = [&](int comp, int x, int y) {
    const uint8_t* row = static_cast<const uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&frame, comp)) +
                         y * GST_VIDEO_FRAME_COMP_STRIDE(&frame, comp);
    return row[x * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, comp)];
  };
  // GRAY8 is R = G = B = Y, so L = Y too (the luma weights sum to 65536).
  const bool gray = GST_VIDEO_INFO_IS_GRAY(&info);
  for (char c : std::string(rgb || gray ? "rgbl" : "l")) ref.channels[c].fill(0);
  for (int y = 0; y < GST_VIDEO_INFO_HEIGHT(&info); ++y) {
    for (int x = 0; x < GST_VIDEO_INFO_WIDTH(&info); ++x) {
      if (gray) {
        for (char c : {'r', 'g', 'b', 'l'}) ++ref.channels[c][sample(0, x, y)];
        continue;
      }
      if (!rgb) {
        ++ref.channels['l'][sample(0, x, y)];
        continue;
      }
      const uint32_t r = sample(GST_VIDEO_COMP_R, x, y), g = sample(GST_VIDEO_COMP_G, x, y),
                     b = sample(GST_VIDEO_COMP_B, x, y);
      ++ref.channels['r'][r];
      ++ref.channels['g'][g];
      ++ref.channels['b'][b];
      ++ref.channels['l'][(13933 * r + 46871 * g + 4732 * b + 32768) >> 16];
    }
  }
  gst_video_frame_unmap(&frame);
  ref.bytes = bufferBytes(buffer);
  return ref;
}

std::vector<uint64_t> countsOf(const GstStructure* hist, char channel) {
  std::vector<uint64_t> out;
  const GValue* array = gst_structure_get_value(hist, std::string(1, channel).c_str());
  if (!array) return out;
  for (guint i = 0; i < gst_value_array_get_size(array); ++i)
    out.push_back(g_value_get_uint(gst_value_array_get_value(array, i)));
  return out;
}

namespace {

void onBefore(GstElement* identity, GstBuffer* buffer, gpointer user_data) {
  auto* observed = static_cast<Observed*>(user_data);
  GstPad* pad = gst_element_get_static_pad(identity, "sink");
  Reference ref = countValues(buffer, pad);
  gst_object_unref(pad);
  std::lock_guard lock(observed->mutex);
  observed->before[GST_BUFFER_PTS(buffer)] = std::move(ref);
}

void onAfter(GstElement*, GstBuffer* buffer, GstPad*, gpointer user_data) {
  auto* observed = static_cast<Observed*>(user_data);
  std::lock_guard lock(observed->mutex);
  observed->after[GST_BUFFER_PTS(buffer)] = bufferBytes(buffer);
}

// Replaces each buffer leaving "before" with a copy in dmabuf-type memory (a memfd wrapped by
// GstDmaBufAllocator): the element takes its fd for the zero-copy import, and where the device
// cannot import it (llvmpipe here) maps it instead. Either way the counts must be the same.
GstPadProbeReturn toDmabufMemory(GstPad*, GstPadProbeInfo* info, gpointer allocator) {
  GstBuffer* in = GST_PAD_PROBE_INFO_BUFFER(info);
  const std::vector<uint8_t> bytes = bufferBytes(in);
  const int fd = memfd_create("esframe-test-dmabuf", MFD_CLOEXEC);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(write(fd, bytes.data(), bytes.size()), ssize_t(bytes.size()));
  GstBuffer* out = gst_buffer_new();
  gst_buffer_append_memory(
      out, gst_dmabuf_allocator_alloc(static_cast<GstAllocator*>(allocator), fd, bytes.size()));
  gst_buffer_copy_into(out, in, GST_BUFFER_COPY_METADATA, 0, gsize(-1));
  gst_buffer_unref(in);
  GST_PAD_PROBE_INFO_DATA(info) = out;
  return GST_PAD_PROBE_OK;
}

}  // namespace

void runPipeline(const std::string& launch, Observed& observed, RunOutcome& outcome, bool dmabuf) {
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(launch.c_str(), &error);
  ASSERT_TRUE(pipeline) << (error ? error->message : "parse failed");
  GstAllocator* dmabuf_allocator = gst_dmabuf_allocator_new();
  if (GstElement* before = gst_bin_get_by_name(GST_BIN(pipeline), "before")) {
    g_signal_connect(before, "handoff", G_CALLBACK(onBefore), &observed);
    if (dmabuf) {
      GstPad* src = gst_element_get_static_pad(before, "src");
      gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, toDmabufMemory, dmabuf_allocator, nullptr);
      gst_object_unref(src);
    }
    gst_object_unref(before);
  }
  if (GstElement* after = gst_bin_get_by_name(GST_BIN(pipeline), "after")) {
    g_signal_connect(after, "handoff", G_CALLBACK(onAfter), &observed);
    gst_object_unref(after);
  }
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstBus* bus = gst_element_get_bus(pipeline);
  for (bool done = false; !done;) {
    GstMessage* m = gst_bus_timed_pop_filtered(
        bus, 60 * GST_SECOND,
        GstMessageType(GST_MESSAGE_ELEMENT | GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    if (!m) {
      ADD_FAILURE() << "no EOS within 60 s: " << launch;
      break;
    }
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ELEMENT) {
      const GstStructure* s = gst_message_get_structure(m);
      if (gst_structure_has_name(s, "esframe")) outcome.messages.push_back(gst_structure_copy(s));
    } else if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
      GError* e = nullptr;
      gst_message_parse_error(m, &e, nullptr);
      outcome.error = e->message;
      g_error_free(e);
      done = true;
    } else {
      done = true;
    }
    gst_message_unref(m);
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  gst_object_unref(dmabuf_allocator);
}

void runToEnd(const std::string& launch, size_t messages, Observed& observed, RunOutcome& outcome,
              bool dmabuf) {
  runPipeline(launch, observed, outcome, dmabuf);
  ASSERT_EQ(outcome.error, "");
  ASSERT_EQ(outcome.messages.size(), messages);
}

}  // namespace esf::test
