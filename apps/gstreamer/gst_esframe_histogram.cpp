// esframehistogram: an in-place analysis element. Each buffer goes through an esf::Pipeline
// (histograms and stats on the GPU, or the CPU references) and on unchanged; the results go out
// as an element message (a GstStructure named "esframe") and, with attach-meta, as a custom meta
// "GstEsframeMeta" on the buffer. The pipeline lives on a thread of its own (pipeline_thread.hpp)
// and is made again when the caps or a property change.
#include <gst/gst.h>
#include <gst/video/gstvideofilter.h>
#include <gst/video/video.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "apps/gstreamer/frame_mapping.hpp"
#include "apps/gstreamer/pipeline_thread.hpp"
#include "esframe/base/log.hpp"
#include "esframe/pipeline.hpp"

GST_DEBUG_CATEGORY_STATIC(esframe_debug);
#define GST_CAT_DEFAULT esframe_debug

G_BEGIN_DECLS
#define GST_TYPE_ESFRAME_HISTOGRAM (gst_esframe_histogram_get_type())
G_DECLARE_FINAL_TYPE(GstEsframeHistogram, gst_esframe_histogram, GST, ESFRAME_HISTOGRAM,
                     GstVideoFilter)
G_END_DECLS

namespace {

constexpr const char* kMetaName = "GstEsframeMeta";

struct Settings {
  guint bins = 256;
  std::string channels = "rgbl";
  std::string strategy = "auto";
  std::string luma_source = "rgb";
  std::string backend = "gles";
  guint blur_taps = 0;  // 0: no blur
  guint blur_iterations = 1;
  guint resize_width = 0, resize_height = 0;  // 0: no resize
  guint message_interval = 1;                 // every Nth buffer; 0: none
  bool attach_meta = false;
  bool health = false;         // camera health figures (esframe/health.hpp) with ffmpeg's defaults
  std::string health_options;  // KEY=VALUE,... (esf::parseHealthConfig); non-empty: health on
  std::string scopes;          // waveform,parade,vectorscope[,columns=N]; empty: none
  bool signalstats = false;    // ffmpeg signalstats' chroma, saturation, hue and BRNG figures
  bool signalstats_tout = false, signalstats_vrep = false;  // TOUT, VREP (imply signalstats)
  std::string detect;  // crop[,KEY=VALUE...],blur[,...],block[,...]; empty: none
};

struct State {
  esf::gst::PipelineThread gl_thread;  // the only thread that touches `pipeline`
  std::unique_ptr<esf::Pipeline> pipeline;
  bool dmabuf_failed = false;  // the device could not import: map the buffers from then on
  guint64 frames = 0;

  ~State() {
    gl_thread.run([this] { pipeline.reset(); });
  }
};

}  // namespace

struct _GstEsframeHistogram {
  GstVideoFilter parent;
  Settings* settings;  // under the object lock
  State* state;        // streaming thread only
  bool dirty;          // settings or caps changed: make the pipeline again (object lock)
};

G_DEFINE_TYPE(GstEsframeHistogram, gst_esframe_histogram, GST_TYPE_VIDEO_FILTER)

namespace {

esf::Result<esf::PipelineConfig> pipelineConfig(const Settings& s) {
  esf::PipelineConfig c;
  if (s.backend != "gles" && s.backend != "cpu")
    return esf::fail(esf::ErrorCode::kInvalidArgument, "backend '", s.backend,
                     "': expected gles or cpu");
  c.backend = s.backend == "cpu" ? esf::Backend::kCpu : esf::Backend::kGles;
  c.histogram.bins = int(s.bins);
  c.histogram.channels = s.channels;
  if (s.strategy != "auto") {
    esf::Result<esf::HistogramStrategy> strategy = esf::parseHistogramStrategy(s.strategy);
    if (!strategy) return strategy.error();
    c.histogram.strategy = *strategy;
  }
  if (s.luma_source != "rgb" && s.luma_source != "source")
    return esf::fail(esf::ErrorCode::kInvalidArgument, "luma-source '", s.luma_source,
                     "': expected rgb or source");
  c.luma = s.luma_source == "source" ? esf::LumaSource::kSource : esf::LumaSource::kRgb;
  if (s.blur_taps > 0) c.blur = esf::BlurConfig{int(s.blur_taps), int(s.blur_iterations)};
  if (s.resize_width > 0 || s.resize_height > 0)
    c.resize = esf::Size{int(s.resize_width), int(s.resize_height)};
  if (s.health || !s.health_options.empty()) {
    esf::Result<esf::HealthConfig> health = esf::parseHealthConfig(s.health_options);
    if (!health) return esf::fail(health.error().code, "health-options: ", health.error().message);
    c.health = std::move(health.value());
  }
  if (!s.scopes.empty()) {
    esf::Result<esf::ScopeOptions> scopes = esf::gst::parseScopes(s.scopes);
    if (!scopes) return scopes.error();
    c.scopes = scopes.value();
  }
  c.signalstats_tout = s.signalstats_tout;
  c.signalstats_vrep = s.signalstats_vrep;
  c.signalstats = s.signalstats || s.signalstats_tout || s.signalstats_vrep;
  if (!s.detect.empty()) {
    esf::Result<esf::DetectConfig> detect = esf::parseDetectConfig(s.detect);
    if (!detect) return detect.error();
    c.detect = detect.value();
  }
  if (esf::Status valid = c.validate(); !valid) return valid.error();
  return c;
}

// The pipeline for the current settings, made on first use (on the pipeline thread).
esf::Result<esf::Pipeline*> currentPipeline(GstEsframeHistogram* self) {
  GST_OBJECT_LOCK(self);
  const Settings settings = *self->settings;
  const bool dirty = self->dirty;
  self->dirty = false;
  GST_OBJECT_UNLOCK(self);
  State& state = *self->state;
  if (dirty) state.pipeline.reset();
  if (!state.pipeline) {
    esf::Result<esf::PipelineConfig> config = pipelineConfig(settings);
    if (!config) return config.error();
    esf::Result<std::unique_ptr<esf::Pipeline>> p = esf::Pipeline::create(*config);
    if (!p) return p.error();
    GST_INFO_OBJECT(self, "esframe pipeline on %s", (*p)->deviceDescription().c_str());
    state.pipeline = std::move(p.value());
  }
  return state.pipeline.get();
}

// Zero-copy first when the buffer is dmabuf-backed; a device that cannot import (llvmpipe on
// EGL surfaceless has no EGL_EXT_image_dma_buf_import) falls back to the mapped bytes for good.
esf::Result<esf::FrameResult> analyse(GstEsframeHistogram* self, esf::Pipeline& pipeline,
                                      GstVideoFrame* video) {
  State& state = *self->state;
  esf::Frame frame = esf::gst::frameOf(*video, !state.dmabuf_failed);
  frame.source = GST_OBJECT_NAME(self);
  if (frame.planes[0].dmabuf_fd >= 0) {
    esf::Result<esf::FrameResult> zero_copy = pipeline.process(frame);
    if (zero_copy) return zero_copy;
    GST_INFO_OBJECT(self, "dmabuf import failed (%s): mapping buffers instead",
                    zero_copy.error().message.c_str());
    state.dmabuf_failed = true;
    frame = esf::gst::frameOf(*video, false);
    frame.source = GST_OBJECT_NAME(self);
  }
  return pipeline.process(frame);
}

gboolean copyField(GQuark field, const GValue* value, gpointer target) {
  gst_structure_id_set_value(static_cast<GstStructure*>(target), field, value);
  return TRUE;
}

GstFlowReturn transformFrameInPlace(GstVideoFilter* filter, GstVideoFrame* video) {
  auto* self = GST_ESFRAME_HISTOGRAM(filter);
  std::optional<esf::Result<esf::Pipeline*>> pipeline;
  std::optional<esf::Result<esf::FrameResult>> analysed;
  self->state->gl_thread.run([&] {
    pipeline = currentPipeline(self);
    if (*pipeline) analysed = analyse(self, ***pipeline, video);
  });
  if (!*pipeline) {
    GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS, ("esframe: %s", pipeline->error().message.c_str()),
                      (nullptr));
    return GST_FLOW_ERROR;
  }
  esf::Result<esf::FrameResult>& result = *analysed;
  if (!result) {
    GST_ELEMENT_ERROR(self, STREAM, FAILED, ("esframe: %s", result.error().message.c_str()),
                      (nullptr));
    return GST_FLOW_ERROR;
  }
  GST_OBJECT_LOCK(self);
  const guint interval = self->settings->message_interval;
  const bool attach_meta = self->settings->attach_meta;
  GST_OBJECT_UNLOCK(self);
  const GstClockTime pts = GST_BUFFER_PTS(video->buffer);
  const guint64 index = self->state->frames++;
  if (attach_meta && gst_buffer_is_writable(video->buffer)) {
    GstCustomMeta* meta = gst_buffer_add_custom_meta(video->buffer, kMetaName);
    if (meta) {
      GstStructure* target = gst_custom_meta_get_structure(meta);
      GstStructure* source = esf::gst::resultStructure(*result, pts);
      gst_structure_foreach(source, copyField, target);
      gst_structure_free(source);
    }
  }
  if (interval > 0 && index % interval == 0) {
    gst_element_post_message(
        GST_ELEMENT(self),
        gst_message_new_element(GST_OBJECT(self), esf::gst::resultStructure(*result, pts)));
  }
  // Every health event, whatever message-interval says: they are rare and each one matters.
  for (const esf::HealthEvent& e : result->events)
    gst_element_post_message(
        GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), esf::gst::eventStructure(e)));
  return GST_FLOW_OK;
}

gboolean setInfo(GstVideoFilter* filter, GstCaps*, GstVideoInfo* in_info, GstCaps*, GstVideoInfo*) {
  auto* self = GST_ESFRAME_HISTOGRAM(filter);
  if (!esf::gst::pixelFormatOf(GST_VIDEO_INFO_FORMAT(in_info))) return FALSE;
  // The pad template bounds width and height; a stride-padded frame may still be too large.
  if (esf::Status s = esf::gst::checkCapsLimits(*in_info); !s) {
    GST_ELEMENT_ERROR(self, STREAM, FORMAT, ("esframe: %s", s.error().message.c_str()), (nullptr));
    return FALSE;
  }
  GST_OBJECT_LOCK(self);
  self->dirty = true;
  self->state->dmabuf_failed = false;
  GST_OBJECT_UNLOCK(self);
  return TRUE;
}

// End of stream: the health intervals still open end with the last frame (a black run as
// blackdetect ends it), posted before the EOS goes on, so they come before it on the bus.
gboolean sinkEvent(GstBaseTransform* transform, GstEvent* event) {
  auto* self = GST_ESFRAME_HISTOGRAM(transform);
  if (GST_EVENT_TYPE(event) == GST_EVENT_EOS) {
    State& state = *self->state;
    std::optional<esf::Result<std::vector<esf::HealthEvent>>> ended;
    state.gl_thread.run([&] {
      if (state.pipeline) ended = state.pipeline->endStream();
    });
    if (ended && !*ended) GST_WARNING_OBJECT(self, "esframe: %s", ended->error().message.c_str());
    if (ended && *ended)
      for (const esf::HealthEvent& e : ended->value())
        gst_element_post_message(
            GST_ELEMENT(self),
            gst_message_new_element(GST_OBJECT(self), esf::gst::eventStructure(e)));
  }
  return GST_BASE_TRANSFORM_CLASS(gst_esframe_histogram_parent_class)->sink_event(transform, event);
}

gboolean stop(GstBaseTransform* transform) {
  auto* self = GST_ESFRAME_HISTOGRAM(transform);
  State& state = *self->state;
  state.gl_thread.run([&] { state.pipeline.reset(); });  // streaming has stopped
  state.frames = 0;
  return TRUE;
}

// A string property's value; NULL (g_object_set(..., NULL)) reads as "", which the settings'
// checks then refuse by name.
std::string stringOf(const GValue* value) {
  const gchar* text = g_value_get_string(value);
  return text ? text : "";
}

// Each property once: its name and blurb, the Settings member it sets and reads, and a number's
// range. Its property id is its index here plus one (GObject's ids start at 1).
struct PropertySpec {
  const char* name;
  const char* blurb;
  std::variant<guint Settings::*, std::string Settings::*, bool Settings::*> field;
  guint min = 0, max = 0;
};

const PropertySpec kProperties[] = {
    {"bins", "Histogram bins (1..256)", &Settings::bins, 1, 256},
    {"channels", "Channels counted, letters of rgbl", &Settings::channels},
    {"strategy", "auto, single, global-atomic, chunk-sum, chunk-reduce, persistent, replicated",
     &Settings::strategy},
    {"luma-source", "L from the converted RGB (rgb) or the source's Y plane (source)",
     &Settings::luma_source},
    {"backend", "gles (GPU) or cpu (the CPU references)", &Settings::backend},
    {"blur-taps", "Box blur taps on the analysed copy (odd; 0: none); the buffer is not changed",
     &Settings::blur_taps, 0, 1u << 20},
    {"blur-iterations", "Box blur passes", &Settings::blur_iterations, 1, 100},
    {"resize-width", "Area-average downscale of the analysed copy (0: none)",
     &Settings::resize_width, 0, esf::kMaxFrameSide},
    {"resize-height", "Area-average downscale of the analysed copy (0: none)",
     &Settings::resize_height, 0, esf::kMaxFrameSide},
    {"message-interval", "Post an \"esframe\" element message every N buffers (0: none)",
     &Settings::message_interval, 0, G_MAXUINT},
    {"attach-meta", "Attach the results as a GstEsframeMeta custom meta on each buffer",
     &Settings::attach_meta},
    {"health",
     "Camera health figures in the results and an \"esframe-health\" element message per event "
     "(black, freeze, scene change)",
     &Settings::health},
    {"health-options",
     "Camera health with these options, KEY=VALUE,... as esframe run --health takes them "
     "(pix_th, pic_th, black_min_duration, noise, freeze_duration, threshold, grid=CxR, "
     "roi=X,Y,W,H[,...], change, flat, detail_loss, covered, covered_min_duration); "
     "non-empty turns health on",
     &Settings::health_options},
    {"scopes",
     "Scopes counted, as esframe run --scopes takes them: waveform, parade, "
     "vectorscope[, columns=N], comma-separated; their counts go in the results' "
     "\"scopes\" structure (empty: none)",
     &Settings::scopes},
    {"signalstats",
     "ffmpeg signalstats' chroma, saturation, hue and BRNG figures of YUV frames in "
     "the results (UMIN ... HUEAVG, BRNG), as esframe run --signalstats",
     &Settings::signalstats},
    {"signalstats-tout", "signalstats' TOUT in the results (turns signalstats on)",
     &Settings::signalstats_tout},
    {"signalstats-vrep", "signalstats' VREP in the results (turns signalstats on)",
     &Settings::signalstats_vrep},
    {"detect",
     "ffmpeg's cropdetect, blurdetect and blockdetect, as esframe run --detect takes "
     "them: crop[,KEY=VALUE...],blur[,...],block[,...]; their figures go in the "
     "results' \"cropdetect\" structure and \"blur\", \"block\" (empty: none)",
     &Settings::detect},
};

template <typename... F>
struct Overloaded : F... {
  using F::operator()...;
};

// fn(the property of `id`, the element's settings) under the object lock. An id that is none of
// kProperties is warned of, and false.
template <typename Fn>
bool withProperty(GObject* object, guint id, GParamSpec* pspec, Fn&& fn) {
  if (id < 1 || id > std::size(kProperties)) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return false;
  }
  auto* self = GST_ESFRAME_HISTOGRAM(object);
  GST_OBJECT_LOCK(self);
  fn(kProperties[id - 1], *self->settings);
  GST_OBJECT_UNLOCK(self);
  return true;
}

void setProperty(GObject* object, guint id, const GValue* value, GParamSpec* pspec) {
  auto* self = GST_ESFRAME_HISTOGRAM(object);
  bool passthrough = false;
  const bool known =
      withProperty(object, id, pspec, [&](const PropertySpec& property, Settings& s) {
        std::visit(Overloaded{[&](guint Settings::*f) { s.*f = g_value_get_uint(value); },
                              [&](std::string Settings::*f) { s.*f = stringOf(value); },
                              [&](bool Settings::*f) { s.*f = g_value_get_boolean(value); }},
                   property.field);
        self->dirty = true;
        passthrough = !s.attach_meta;
      });
  if (!known) return;
  // Without meta the buffer is only read: no writable copy is ever needed.
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), passthrough);
}

void getProperty(GObject* object, guint id, GValue* value, GParamSpec* pspec) {
  withProperty(object, id, pspec, [&](const PropertySpec& property, const Settings& s) {
    std::visit(
        Overloaded{[&](guint Settings::*f) { g_value_set_uint(value, s.*f); },
                   [&](std::string Settings::*f) { g_value_set_string(value, (s.*f).c_str()); },
                   [&](bool Settings::*f) { g_value_set_boolean(value, s.*f); }},
        property.field);
  });
}

void finalize(GObject* object) {
  auto* self = GST_ESFRAME_HISTOGRAM(object);
  delete self->state;
  delete self->settings;
  G_OBJECT_CLASS(gst_esframe_histogram_parent_class)->finalize(object);
}

constexpr auto kRw = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);

void installProperties(GObjectClass* c) {
  const Settings d;
  for (guint i = 0; i < std::size(kProperties); ++i) {
    const PropertySpec& p = kProperties[i];
    GParamSpec* spec = std::visit(
        Overloaded{[&](guint Settings::*f) {
                     return g_param_spec_uint(p.name, p.name, p.blurb, p.min, p.max, d.*f, kRw);
                   },
                   [&](std::string Settings::*f) {
                     return g_param_spec_string(p.name, p.name, p.blurb, (d.*f).c_str(), kRw);
                   },
                   [&](bool Settings::*f) {
                     return g_param_spec_boolean(p.name, p.name, p.blurb, d.*f, kRw);
                   }},
        p.field);
    g_object_class_install_property(c, i + 1, spec);
  }
}

// esframe's log lines into the GStreamer debug log.
void logToGst(esf::LogLevel level, std::string_view message, void*) {
  const GstDebugLevel gst_level = level == esf::LogLevel::kError     ? GST_LEVEL_ERROR
                                  : level == esf::LogLevel::kWarning ? GST_LEVEL_WARNING
                                  : level == esf::LogLevel::kInfo    ? GST_LEVEL_INFO
                                                                     : GST_LEVEL_DEBUG;
  GST_CAT_LEVEL_LOG(esframe_debug, gst_level, nullptr, "%.*s", int(message.size()), message.data());
}

}  // namespace

static void gst_esframe_histogram_class_init(GstEsframeHistogramClass* klass) {
  GObjectClass* object_class = G_OBJECT_CLASS(klass);
  object_class->set_property = setProperty;
  object_class->get_property = getProperty;
  object_class->finalize = finalize;
  installProperties(object_class);

  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  gst_element_class_set_static_metadata(
      element_class, "esframe histogram", "Filter/Analyzer/Video",
      "Histograms and exposure statistics of each frame on the GPU (GLES 3.1 compute), posted "
      "as \"esframe\" element messages; buffers pass through unchanged",
      "esframe");
  const std::string formats = esf::gst::capsFormatList();
  // The frame limit (esframe/base/sizes.hpp): larger caps are refused at negotiation.
  const std::string side = "(int)[1," + std::to_string(esf::kMaxFrameSide) + "]";
  const std::string sizes = ", width=" + side + ", height=" + side;
  const std::string caps_text = "video/x-raw, format=(string)" + formats + sizes +
                                "; video/x-raw(memory:DMABuf), format=(string)" + formats + sizes;
  GstCaps* caps = gst_caps_from_string(caps_text.c_str());
  gst_element_class_add_pad_template(
      element_class, gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template(
      element_class, gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref(caps);

  GST_BASE_TRANSFORM_CLASS(klass)->stop = stop;
  GST_BASE_TRANSFORM_CLASS(klass)->sink_event = sinkEvent;
  GstVideoFilterClass* filter_class = GST_VIDEO_FILTER_CLASS(klass);
  filter_class->set_info = setInfo;
  filter_class->transform_frame_ip = transformFrameInPlace;
}

static void gst_esframe_histogram_init(GstEsframeHistogram* self) {
  self->settings = new Settings;
  self->state = new State;
  self->dirty = true;
  gst_base_transform_set_in_place(GST_BASE_TRANSFORM(self), TRUE);
  gst_base_transform_set_passthrough(GST_BASE_TRANSFORM(self), TRUE);
}

static gboolean plugin_init(GstPlugin* plugin) {
  GST_DEBUG_CATEGORY_INIT(esframe_debug, "esframe", 0, "esframe histogram element");
  esf::setLogHandler(logToGst);
  const gchar* tags[] = {nullptr};
  gst_meta_register_custom(kMetaName, tags, nullptr, nullptr, nullptr);
  return gst_element_register(plugin, "esframehistogram", GST_RANK_NONE,
                              GST_TYPE_ESFRAME_HISTOGRAM);
}

// The tree has no licence file yet: "unknown" is the licence string GStreamer accepts for that.
#define PACKAGE "esframe"
GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, esframe,
                  "esframe: GLES 3.1 compute histograms and statistics on video frames",
                  plugin_init, ESFRAME_VERSION, "unknown", "esframe", "esframe")
