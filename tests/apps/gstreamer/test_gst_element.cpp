// esframehistogram in real GStreamer pipelines (gst_test_pipeline.hpp): every "esframe"
// message's counts equal a histogram counted from the bytes the identity saw, and every buffer
// leaves the element byte for byte as it came in; health, message interval and meta, and the
// settings it refuses. GST_PLUGIN_PATH points at the build's plugin.
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "tests/apps/gstreamer/gst_test_pipeline.hpp"

namespace esf::test {
namespace {

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
  ASSERT_NO_FATAL_FAILURE(runToEnd(launch, size_t(kBuffers), observed, outcome, dmabuf));
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
  ASSERT_NO_FATAL_FAILURE(runToEnd(launch, 2u, observed, outcome));
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
}  // namespace esf::test
