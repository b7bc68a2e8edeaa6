// esframehistogram in real GStreamer pipelines:
//   videotestsrc ! caps ! identity name=before ! esframehistogram ! fakesink name=after
// Every "esframe" message's counts equal a histogram counted here from the bytes the identity
// saw (read through GStreamer's own description of the format, not esframe's), and every buffer
// leaves the element byte for byte as it came in. GST_PLUGIN_PATH points at the build's plugin.
#include <gst/allocators/gstdmabuf.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

using ValueCounts = std::array<uint64_t, 256>;  // occurrences of each 8-bit value

struct Reference {
  std::map<char, ValueCounts> channels;  // 'r', 'g', 'b', 'l'
  std::vector<uint8_t> bytes;            // the buffer as it went in
};

struct Observed {
  std::mutex mutex;
  std::map<GstClockTime, Reference> before;
  std::map<GstClockTime, std::vector<uint8_t>> after;
};

std::vector<uint8_t> bufferBytes(GstBuffer* buffer) {
  GstMapInfo map;
  EXPECT_TRUE(gst_buffer_map(buffer, &map, GST_MAP_READ));
  std::vector<uint8_t> bytes(map.data, map.data + map.size);
  gst_buffer_unmap(buffer, &map);
  return bytes;
}

// Counts from GStreamer's component layout: RGB formats give r, g, b and l (integer BT.709,
// docs/output-formats.md); YUV formats give l from the Y component (luma-source=source).
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

std::vector<uint64_t> countsOf(const GstStructure* hist, char channel) {
  std::vector<uint64_t> out;
  const GValue* array = gst_structure_get_value(hist, std::string(1, channel).c_str());
  if (!array) return out;
  for (guint i = 0; i < gst_value_array_get_size(array); ++i)
    out.push_back(g_value_get_uint(gst_value_array_get_value(array, i)));
  return out;
}

struct RunOutcome {
  std::vector<GstStructure*> messages;  // "esframe" structures, owned
  std::string error;                    // the first ERROR message's text
  ~RunOutcome() {
    for (GstStructure* s : messages) gst_structure_free(s);
  }
};

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

// Runs the launch line to EOS or ERROR, hooking the identity "before" and the fakesink "after".
void runPipeline(const std::string& launch, Observed& observed, RunOutcome& outcome,
                 bool dmabuf = false) {
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

struct Case {
  const char* format;
  int width, height;
  const char* pattern;
  int bins;
};

class EsframeElement : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { gst_init(nullptr, nullptr); }
};

// Every message equals the reference for its buffer; every buffer passes unchanged.
void checkCase(const Case& c, const std::string& element_options, bool dmabuf = false) {
  SCOPED_TRACE(std::string(c.format) + " " + std::to_string(c.width) + "x" +
               std::to_string(c.height) + " " + c.pattern);
  constexpr int kBuffers = 3;
  const std::string launch =
      "videotestsrc num-buffers=" + std::to_string(kBuffers) + " pattern=" + c.pattern +
      " ! video/x-raw,format=" + c.format + ",width=" + std::to_string(c.width) +
      ",height=" + std::to_string(c.height) +
      " ! identity name=before signal-handoffs=true ! esframehistogram bins=" +
      std::to_string(c.bins) + " " + element_options +
      " ! fakesink name=after signal-handoffs=true";
  Observed observed;
  RunOutcome outcome;
  runPipeline(launch, observed, outcome, dmabuf);
  ASSERT_EQ(outcome.error, "");
  ASSERT_EQ(outcome.messages.size(), size_t(kBuffers));
  ASSERT_EQ(observed.before.size(), size_t(kBuffers));
  ASSERT_EQ(observed.after.size(), size_t(kBuffers));
  for (const auto& [pts, ref] : observed.before)
    EXPECT_EQ(observed.after.at(pts), ref.bytes) << "buffer at " << pts << " changed";
  for (const GstStructure* s : outcome.messages) {
    guint64 pts = 0;
    int bins = 0;
    ASSERT_TRUE(gst_structure_get_uint64(s, "pts", &pts));
    ASSERT_TRUE(gst_structure_get_int(s, "bins", &bins));
    EXPECT_EQ(bins, c.bins);
    const GstStructure* hist = nullptr;
    ASSERT_TRUE(gst_structure_get(s, "hist", GST_TYPE_STRUCTURE, &hist, nullptr));
    const Reference& ref = observed.before.at(pts);
    ASSERT_EQ(gst_structure_n_fields(hist), int(ref.channels.size()));
    for (const auto& [channel, values] : ref.channels) {
      std::vector<uint64_t> expected(size_t(c.bins), 0);
      for (int v = 0; v < 256; ++v) expected[size_t((v * c.bins) >> 8)] += values[size_t(v)];
      EXPECT_EQ(countsOf(hist, channel), expected) << "channel " << channel << " pts " << pts;
    }
    gst_structure_free(const_cast<GstStructure*>(hist));
  }
}

TEST_F(EsframeElement, RgbFormatsCountLikeTheReference) {
  for (const Case& c : {Case{"RGBA", 35, 17, "snow", 256}, Case{"RGBx", 1, 1, "snow", 256},
                        Case{"BGRx", 35, 17, "smpte", 24}, Case{"BGRA", 8, 3, "snow", 7},
                        Case{"xRGB", 35, 17, "snow", 256}, Case{"ARGB", 2, 5, "snow", 1},
                        Case{"RGB", 35, 17, "snow", 256}, Case{"BGR", 33, 3, "ball", 100},
                        Case{"GRAY8", 35, 17, "snow", 256}})
    checkCase(c, "channels=rgbl");
}

TEST_F(EsframeElement, YuvFormatsCountTheirLumaPlane) {
  for (const Case& c : {Case{"I420", 35, 17, "snow", 256}, Case{"NV12", 34, 17, "snow", 256},
                        Case{"NV21", 34, 18, "smpte", 16}, Case{"YUY2", 34, 17, "snow", 256},
                        Case{"UYVY", 2, 1, "snow", 256}, Case{"I420", 1, 1, "snow", 5}})
    checkCase(c, "channels=l luma-source=source");
}

TEST_F(EsframeElement, DmabufMemoryIsImportedOrMapped) {
  for (const Case& c : {Case{"BGRx", 35, 17, "snow", 256}, Case{"RGB", 35, 17, "snow", 32}})
    checkCase(c, "channels=rgbl", true);
  for (const Case& c : {Case{"NV12", 34, 17, "snow", 256}, Case{"I420", 35, 17, "snow", 256}})
    checkCase(c, "channels=l luma-source=source", true);
}

TEST_F(EsframeElement, CpuBackendAndResizedCopyLeaveTheBufferAlone) {
  // The CPU backend counts the same; a blurred, resized analysed copy leaves the buffer as is
  // (its counts are of the copy, so only the pass-through is checked here).
  checkCase(Case{"RGBA", 35, 17, "snow", 64}, "channels=rgbl backend=cpu");
  const std::string launch =
      "videotestsrc num-buffers=2 pattern=snow ! video/x-raw,format=RGBA,width=64,height=32 ! "
      "identity name=before signal-handoffs=true ! esframehistogram blur-taps=3 "
      "resize-width=16 resize-height=8 ! fakesink name=after signal-handoffs=true";
  Observed observed;
  RunOutcome outcome;
  runPipeline(launch, observed, outcome);
  ASSERT_EQ(outcome.error, "");
  ASSERT_EQ(outcome.messages.size(), 2u);
  for (const GstStructure* s : outcome.messages) {
    int width = 0, height = 0;
    ASSERT_TRUE(gst_structure_get_int(s, "width", &width));
    ASSERT_TRUE(gst_structure_get_int(s, "height", &height));
    EXPECT_EQ(width, 16);
    EXPECT_EQ(height, 8);
  }
  for (const auto& [pts, ref] : observed.before) EXPECT_EQ(observed.after.at(pts), ref.bytes);
}

TEST_F(EsframeElement, MessageIntervalAndMeta) {
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(
      "videotestsrc num-buffers=5 pattern=snow ! video/x-raw,format=GRAY8,width=9,height=7 ! "
      "esframehistogram message-interval=2 attach-meta=true channels=l ! "
      "fakesink name=after signal-handoffs=true",
      &error);
  ASSERT_TRUE(pipeline);
  struct Metas {
    std::mutex mutex;
    std::vector<std::vector<uint64_t>> l_counts;
  } metas;
  GstElement* after = gst_bin_get_by_name(GST_BIN(pipeline), "after");
  g_signal_connect(after, "handoff",
                   G_CALLBACK(+[](GstElement*, GstBuffer* buffer, GstPad*, gpointer data) {
                     auto* m = static_cast<Metas*>(data);
                     GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, "GstEsframeMeta");
                     std::lock_guard lock(m->mutex);
                     if (!meta) {
                       m->l_counts.push_back({});
                       return;
                     }
                     const GstStructure* hist = nullptr;
                     gst_structure_get(gst_custom_meta_get_structure(meta), "hist",
                                       GST_TYPE_STRUCTURE, &hist, nullptr);
                     m->l_counts.push_back(countsOf(hist, 'l'));
                     gst_structure_free(const_cast<GstStructure*>(hist));
                   }),
                   &metas);
  gst_object_unref(after);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstBus* bus = gst_element_get_bus(pipeline);
  std::vector<std::vector<uint64_t>> message_counts;
  for (;;) {
    GstMessage* m = gst_bus_timed_pop_filtered(
        bus, 60 * GST_SECOND,
        GstMessageType(GST_MESSAGE_ELEMENT | GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    ASSERT_TRUE(m);
    const bool end = GST_MESSAGE_TYPE(m) != GST_MESSAGE_ELEMENT;
    EXPECT_NE(GST_MESSAGE_TYPE(m), GST_MESSAGE_ERROR);
    if (!end) {
      const GstStructure* hist = nullptr;
      gst_structure_get(gst_message_get_structure(m), "hist", GST_TYPE_STRUCTURE, &hist, nullptr);
      message_counts.push_back(countsOf(hist, 'l'));
      gst_structure_free(const_cast<GstStructure*>(hist));
    }
    gst_message_unref(m);
    if (end) break;
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  // Buffers 0, 2, 4 give messages; every buffer carries the meta, equal to the message's.
  ASSERT_EQ(message_counts.size(), 3u);
  ASSERT_EQ(metas.l_counts.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    ASSERT_EQ(metas.l_counts[i].size(), 256u) << "buffer " << i << " has no meta";
    uint64_t total = 0;
    for (uint64_t n : metas.l_counts[i]) total += n;
    EXPECT_EQ(total, 63u);
  }
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(message_counts[i], metas.l_counts[2 * i]);
}

// What a health run posts: each frame's "health" structure's boolean `field` (counted where true)
// and the "esframe-health" events with their frames, until EOS.
struct HealthRun {
  int frames = 0, field_true = 0;
  std::vector<std::pair<std::string, uint64_t>> events;
};

HealthRun runHealth(const char* launch, const char* field) {
  HealthRun run;
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(launch, &error);
  EXPECT_TRUE(pipeline) << (error ? error->message : "");
  if (!pipeline) return run;
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstBus* bus = gst_element_get_bus(pipeline);
  for (;;) {
    GstMessage* m = gst_bus_timed_pop_filtered(
        bus, 60 * GST_SECOND,
        GstMessageType(GST_MESSAGE_ELEMENT | GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    EXPECT_TRUE(m) << "no EOS within 60 s";
    if (!m) break;
    const bool end = GST_MESSAGE_TYPE(m) != GST_MESSAGE_ELEMENT;
    EXPECT_NE(GST_MESSAGE_TYPE(m), GST_MESSAGE_ERROR);
    const GstStructure* st = end ? nullptr : gst_message_get_structure(m);
    if (st && gst_structure_has_name(st, "esframe")) {
      ++run.frames;
      const GstStructure* health = nullptr;
      EXPECT_TRUE(gst_structure_get(st, "health", GST_TYPE_STRUCTURE, &health, nullptr));
      gboolean value = FALSE;
      if (health) {
        run.field_true += gst_structure_get_boolean(health, field, &value) && value;
        gst_structure_free(const_cast<GstStructure*>(health));
      }
    } else if (st && gst_structure_has_name(st, "esframe-health")) {
      guint64 seq = 0;
      EXPECT_TRUE(gst_structure_get_uint64(st, "seq", &seq));
      run.events.emplace_back(gst_structure_get_string(st, "event"), seq);
    }
    gst_message_unref(m);
    if (end) break;
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  return run;
}

TEST_F(EsframeElement, HealthFiguresAndEventMessages) {
  // 70 black buffers at 30 fps: a black picture every time, and both a black interval and a
  // freeze once 2 s (ffmpeg's defaults) have passed, at buffer 60; at the end of the stream the
  // black interval ends with the last buffer (a freeze gives no end, as freezedetect).
  const HealthRun run = runHealth(
      "videotestsrc num-buffers=70 pattern=black ! "
      "video/x-raw,format=GRAY8,width=9,height=7,framerate=30/1 ! "
      "esframehistogram health=true channels=l backend=cpu ! fakesink",
      "black_picture");
  EXPECT_EQ(run.frames, 70);
  EXPECT_EQ(run.field_true, 70);
  const std::vector<std::pair<std::string, uint64_t>> want = {
      {"black_start", 60}, {"freeze_start", 60}, {"black_end", 69}};
  EXPECT_EQ(run.events, want);
}

TEST_F(EsframeElement, HealthOptionsSetTheThresholdsAndTheGrid) {
  // black_min_duration=0.5: the black interval starts at buffer 15 (30 fps), not at 60, and
  // ends with the last buffer; the 2x2 grid gives every result the covered state.
  const HealthRun run = runHealth(
      "videotestsrc num-buffers=40 pattern=black ! "
      "video/x-raw,format=GRAY8,width=9,height=7,framerate=30/1 ! "
      "esframehistogram health-options=\"grid=2x2,black_min_duration=0.5\" channels=l "
      "backend=cpu ! fakesink",
      "covered");
  EXPECT_EQ(run.frames, 40);
  EXPECT_EQ(run.field_true, 40) << "a black picture has every cell flat";
  const std::vector<std::pair<std::string, uint64_t>> want = {{"black_start", 15},
                                                              {"black_end", 39}};
  EXPECT_EQ(run.events, want);
}

TEST_F(EsframeElement, BadHealthOptionsNameTheKey) {
  Observed observed;
  RunOutcome outcome;
  runPipeline(
      "videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=8,height=8 ! "
      "esframehistogram health-options=\"noise=loud\" ! fakesink",
      observed, outcome);
  EXPECT_NE(
      outcome.error.find("esframe: health-options: health keys: noise=loud: not a finite number"),
      std::string::npos)
      << outcome.error;
  EXPECT_TRUE(outcome.messages.empty());
}

TEST_F(EsframeElement, ANullStringPropertyIsRefusedNotACrash) {
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(
      "videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=8,height=8 ! "
      "esframehistogram name=h ! fakesink",
      &error);
  ASSERT_TRUE(pipeline) << (error ? error->message : "");
  GstElement* element = gst_bin_get_by_name(GST_BIN(pipeline), "h");
  ASSERT_TRUE(element);
  g_object_set(element, "channels", nullptr, nullptr);
  gchar* channels = nullptr;
  g_object_get(element, "channels", &channels, nullptr);
  EXPECT_STREQ(channels, "");
  g_free(channels);
  gst_object_unref(element);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* m = gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND,
                                             GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  ASSERT_TRUE(m);
  EXPECT_EQ(GST_MESSAGE_TYPE(m), GST_MESSAGE_ERROR);
  if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
    GError* e = nullptr;
    gst_message_parse_error(m, &e, nullptr);
    EXPECT_NE(std::string(e->message).find("channels"), std::string::npos) << e->message;
    g_error_free(e);
  }
  gst_message_unref(m);
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}

TEST_F(EsframeElement, BadSettingsAreOneErrorMessage) {
  for (const char* options :
       {"channels=rgbx", "strategy=fastest", "blur-taps=4", "luma-source=y", "backend=vulkan"}) {
    SCOPED_TRACE(options);
    Observed observed;
    RunOutcome outcome;
    runPipeline(std::string("videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=8,"
                            "height=8 ! esframehistogram ") +
                    options + " ! fakesink",
                observed, outcome);
    EXPECT_EQ(outcome.error.rfind("esframe: ", 0), 0u) << outcome.error;
    EXPECT_TRUE(outcome.messages.empty());
  }
}

// The "scopes" property: each message's "scopes" structure holds the counts, as GBytes of
// little-endian uint32, equal to scopes counted here from the RGBA bytes the identity saw by
// docs/output-formats.md's definitions ("Scopes": column floor(x W' / W), L the BT.709 integer
// luma, Cb and Cr by the fixed-point BT.709 limited-range matrix), on the GPU and the CPU.
std::vector<uint32_t> countsField(const GstStructure* scopes, const char* name) {
  std::vector<uint32_t> out;
  const GValue* value = gst_structure_get_value(scopes, name);
  if (!value || G_VALUE_TYPE(value) != G_TYPE_BYTES) return out;
  gsize size = 0;
  const auto* bytes = static_cast<const uint8_t*>(
      g_bytes_get_data(static_cast<GBytes*>(g_value_get_boxed(value)), &size));
  for (gsize i = 0; i + 4 <= size; i += 4)
    out.push_back(uint32_t(bytes[i]) | uint32_t(bytes[i + 1]) << 8 | uint32_t(bytes[i + 2]) << 16 |
                  uint32_t(bytes[i + 3]) << 24);
  return out;
}

TEST_F(EsframeElement, ScopesInTheMessages) {
  constexpr int kWidth = 37, kHeight = 11, kColumns = 5;
  for (const char* backend : {"cpu", "gles"}) {
    SCOPED_TRACE(backend);
    Observed observed;
    RunOutcome outcome;
    runPipeline(std::string("videotestsrc num-buffers=2 pattern=smpte ! "
                            "video/x-raw,format=RGBA,width=37,height=11 ! identity name=before ! "
                            "esframehistogram scopes=\"waveform,parade,vectorscope,columns=5\" "
                            "backend=") +
                    backend + " ! fakesink",
                observed, outcome);
    ASSERT_EQ(outcome.error, "");
    ASSERT_EQ(outcome.messages.size(), 2u);
    for (const GstStructure* message : outcome.messages) {
      guint64 pts = 0;
      ASSERT_TRUE(gst_structure_get_uint64(message, "pts", &pts));
      const std::vector<uint8_t>& rgba = observed.before.at(pts).bytes;
      ASSERT_EQ(rgba.size(), size_t(kWidth) * kHeight * 4);
      std::vector<uint32_t> waveform(kColumns * 256), parade(3 * kColumns * 256),
          vectorscope(256 * 256);
      for (int y = 0; y < kHeight; ++y)
        for (int x = 0; x < kWidth; ++x) {
          const uint8_t* p = &rgba[(size_t(y) * kWidth + size_t(x)) * 4];
          const int32_t r = p[0], g = p[1], b = p[2], column = x * kColumns / kWidth;
          ++waveform[size_t(column) * 256 + ((13933 * r + 46871 * g + 4732 * b + 32768) >> 16)];
          for (int c = 0; c < 3; ++c)
            ++parade[(size_t(c) * kColumns + size_t(column)) * 256 + p[c]];
          const int32_t cb = (-6596 * r - 22189 * g + 28785 * b + 8421376) >> 16;
          const int32_t cr = (28784 * r - 26145 * g - 2639 * b + 8421376) >> 16;
          ++vectorscope[size_t(cr) * 256 + size_t(cb)];
        }
      const GstStructure* scopes = nullptr;
      ASSERT_TRUE(gst_structure_get(message, "scopes", GST_TYPE_STRUCTURE, &scopes, nullptr));
      int columns = 0;
      guint64 samples = 0;
      EXPECT_TRUE(gst_structure_get_int(scopes, "columns", &columns));
      EXPECT_EQ(columns, kColumns);
      EXPECT_TRUE(gst_structure_get_uint64(scopes, "vectorscope_samples", &samples));
      EXPECT_EQ(samples, uint64_t(kWidth) * kHeight);
      EXPECT_EQ(countsField(scopes, "waveform"), waveform);
      EXPECT_EQ(countsField(scopes, "parade"), parade);
      EXPECT_EQ(countsField(scopes, "vectorscope"), vectorscope);
      gst_structure_free(const_cast<GstStructure*>(scopes));
    }
  }
  // Without the property there is no "scopes"; a bad value is one error naming it.
  Observed observed;
  RunOutcome plain, bad;
  runPipeline(
      "videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=8,height=8 ! "
      "esframehistogram backend=cpu ! fakesink",
      observed, plain);
  ASSERT_EQ(plain.messages.size(), 1u);
  EXPECT_FALSE(gst_structure_has_field(plain.messages[0], "scopes"));
  runPipeline(
      "videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=8,height=8 ! "
      "esframehistogram scopes=\"waveform,histogram\" backend=cpu ! fakesink",
      observed, bad);
  EXPECT_NE(bad.error.find("esframe: scopes: 'histogram': expected waveform, parade, vectorscope"),
            std::string::npos)
      << bad.error;
  EXPECT_TRUE(bad.messages.empty());
}

// Chroma figures worked out here from the I420 bytes the identity saw (GStreamer's own plane
// offsets and strides): signalstats' UMIN, UMAX, UAVG, UDIF, the V ones and SATMAX
// (docs/output-formats.md, "Signalstats"), against the message's.
TEST_F(EsframeElement, SignalstatsInTheMessages) {
  constexpr int kWidth = 37, kHeight = 11;
  GstVideoInfo info;
  ASSERT_TRUE(gst_video_info_set_format(&info, GST_VIDEO_FORMAT_I420, kWidth, kHeight));
  const int cw = (kWidth + 1) / 2, ch = (kHeight + 1) / 2;
  const double samples = double(cw) * ch;
  for (const char* backend : {"cpu", "gles"}) {
    SCOPED_TRACE(backend);
    Observed observed;
    RunOutcome outcome;
    runPipeline(std::string("videotestsrc num-buffers=2 pattern=smpte horizontal-speed=5 ! "
                            "video/x-raw,format=I420,width=37,height=11 ! identity name=before ! "
                            "esframehistogram signalstats-tout=true backend=") +
                    backend + " ! fakesink",
                observed, outcome);
    ASSERT_EQ(outcome.error, "");
    ASSERT_EQ(outcome.messages.size(), 2u);
    const std::vector<uint8_t>* previous = nullptr;
    for (const GstStructure* message : outcome.messages) {
      guint64 pts = 0;
      ASSERT_TRUE(gst_structure_get_uint64(message, "pts", &pts));
      const std::vector<uint8_t>& bytes = observed.before.at(pts).bytes;
      ASSERT_EQ(bytes.size(), GST_VIDEO_INFO_SIZE(&info));
      auto at = [&](const std::vector<uint8_t>& b, int plane, int x, int y) {
        return b[GST_VIDEO_INFO_PLANE_OFFSET(&info, plane) +
                 size_t(y) * GST_VIDEO_INFO_PLANE_STRIDE(&info, plane) + size_t(x)];
      };
      int sat_max = 0;
      for (int plane : {1, 2}) {
        SCOPED_TRACE(plane);
        int lo = 255, hi = 0;
        double sum = 0, dif = 0;
        for (int y = 0; y < ch; ++y)
          for (int x = 0; x < cw; ++x) {
            const int v = at(bytes, plane, x, y);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            sum += v;
            if (previous) dif += std::abs(v - int(at(*previous, plane, x, y)));
            if (plane == 1)
              sat_max = std::max(
                  sat_max, int(std::floor(std::hypot(v - 128.0, at(bytes, 2, x, y) - 128.0))));
          }
        const std::string p = plane == 1 ? "U" : "V";
        double min = -1, max = -1, avg = -1, d = -1;
        ASSERT_TRUE(gst_structure_get_double(message, (p + "MIN").c_str(), &min));
        ASSERT_TRUE(gst_structure_get_double(message, (p + "MAX").c_str(), &max));
        ASSERT_TRUE(gst_structure_get_double(message, (p + "AVG").c_str(), &avg));
        ASSERT_TRUE(gst_structure_get_double(message, (p + "DIF").c_str(), &d));
        EXPECT_EQ(min, lo);
        EXPECT_EQ(max, hi);
        EXPECT_EQ(avg, sum / samples);
        EXPECT_EQ(d, dif / samples);
      }
      double sat = -1, tout = -1;
      ASSERT_TRUE(gst_structure_get_double(message, "SATMAX", &sat));
      EXPECT_EQ(sat, sat_max);
      for (const char* name : {"ULOW", "UHIGH", "BRNG", "SATAVG", "HUEMED", "HUEAVG"})
        EXPECT_TRUE(gst_structure_has_field_typed(message, name, G_TYPE_DOUBLE)) << name;
      ASSERT_TRUE(gst_structure_get_double(message, "TOUT", &tout));
      EXPECT_TRUE(tout >= 0 && tout <= 1) << tout;
      EXPECT_FALSE(gst_structure_has_field(message, "VREP"));  // not asked for
      EXPECT_FALSE(gst_structure_has_field(message, "cropdetect"));
      previous = &bytes;
    }
    // The picture moves: the second frame's UDIF or VDIF is not 0.
    double udif = 0, vdif = 0;
    gst_structure_get_double(outcome.messages[1], "UDIF", &udif);
    gst_structure_get_double(outcome.messages[1], "VDIF", &vdif);
    EXPECT_GT(udif + vdif, 0);
  }
}

// A white 48x32 picture inside 8 black lines on every side: cropdetect's box from the third
// frame (skip=2), blur and block on every frame; a bad detect value is one error naming it.
TEST_F(EsframeElement, DetectorsInTheMessages) {
  Observed observed;
  RunOutcome outcome, plain, bad;
  const std::string source =
      "videotestsrc num-buffers=3 pattern=white ! video/x-raw,format=I420,width=48,height=32 ! "
      "videobox left=-8 right=-8 top=-8 bottom=-8 fill=black ! video/x-raw,format=I420 ! ";
  runPipeline(source + "esframehistogram detect=\"crop,blur,block\" backend=cpu ! fakesink",
              observed, outcome);
  ASSERT_EQ(outcome.error, "");
  ASSERT_EQ(outcome.messages.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const GstStructure* message = outcome.messages[i];
    SCOPED_TRACE(i);
    EXPECT_TRUE(gst_structure_has_field_typed(message, "blur", G_TYPE_DOUBLE));
    EXPECT_TRUE(gst_structure_has_field_typed(message, "block", G_TYPE_DOUBLE));
    EXPECT_FALSE(gst_structure_has_field(message, "UMIN"));  // signalstats not asked for
    const GstStructure* crop = nullptr;
    const bool has_crop =
        gst_structure_get(message, "cropdetect", GST_TYPE_STRUCTURE, &crop, nullptr);
    ASSERT_EQ(has_crop, i >= 2);
    if (!has_crop) continue;
    int v[8] = {};
    const char* names[8] = {"x1", "x2", "y1", "y2", "w", "h", "x", "y"};
    for (int k = 0; k < 8; ++k) EXPECT_TRUE(gst_structure_get_int(crop, names[k], &v[k]));
    EXPECT_EQ(std::vector<int>(v, v + 8), (std::vector<int>{8, 55, 8, 39, 48, 32, 8, 8}));
    EXPECT_STREQ(gst_structure_get_string(crop, "crop"), "48:32:8:8");
    gst_structure_free(const_cast<GstStructure*>(crop));
  }
  runPipeline(source + "esframehistogram backend=cpu ! fakesink", observed, plain);
  ASSERT_EQ(plain.messages.size(), 3u);
  for (const char* name : {"blur", "block", "cropdetect", "UMIN"})
    EXPECT_FALSE(gst_structure_has_field(plain.messages[2], name)) << name;
  runPipeline(source + "esframehistogram detect=\"crop,sharpness=2\" backend=cpu ! fakesink",
              observed, bad);
  EXPECT_NE(bad.error.find("detect"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("sharpness"), std::string::npos) << bad.error;
  EXPECT_TRUE(bad.messages.empty());
}

// Caps past the frame limit (16384 a side, esframe/base/sizes.hpp) are refused at negotiation,
// before a frame is mapped; at the limit a frame is counted. CI also runs the HostileSize suite
// under qemu-arm.
TEST(HostileSize, GstCapsOverTheLimitAreRefused) {
  gst_init(nullptr, nullptr);
  Observed observed;
  RunOutcome over;
  runPipeline(
      "videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8,width=16385,height=1 ! "
      "esframehistogram ! fakesink",
      observed, over);
  EXPECT_NE(over.error, "");
  EXPECT_TRUE(over.messages.empty());
  RunOutcome at;
  runPipeline(
      "videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8,width=16384,height=1 ! "
      "esframehistogram ! fakesink",
      observed, at);
  EXPECT_EQ(at.error, "");
  ASSERT_EQ(at.messages.size(), 1u);
  int width = 0;
  ASSERT_TRUE(gst_structure_get_int(at.messages[0], "width", &width));
  EXPECT_EQ(width, 16384);
}

}  // namespace
