// libesframe-network.so: one connection to a network stream through GStreamer,
//   uridecodebin uri=URI ! videoconvert ! appsink caps="video/x-raw(memory:DMABuf),format=F;
//                                                      video/x-raw,format=F"
// with F the formats esframe imports. uridecodebin picks the source (rtspsrc, souphttpsrc, ...),
// the demuxer and the decoder; videoconvert passes a decoder's output through untouched when
// esframe imports its format, dmabufs included (its caps take any memory in passthrough), and
// converts only what it does not (so a decoded H.264 frame reaches the pipeline as decoded).
// Where the request allows dmabufs, a frame whose planes lie in dmabufs (a V4L2 decoder's, asked
// for capture-io-mode=dmabuf) carries their fds for the zero-copy import; its sample is held
// until the next pull, so the dmabuf outlives the import.
// What the decoder is given is watched on its sink pad (TransitDamage): a frame decoded from data
// lost in transit is skipped and counted in the next frame's "corrupted", as a camera's error
// buffers are, and so is one lost whole.
#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/pbutils/missing-plugins.h>
#include <gst/video/video.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

#include "base/signal_free_thread.hpp"
#include "capture/gst_video_frame.hpp"
#include "capture/network_module.hpp"
#include "capture/transit_damage.hpp"

namespace esf {
namespace network_module {

const NetworkHost* g_host = nullptr;

namespace {

// How long the pipeline may take to stop (rtspsrc's TEARDOWN waits 100 ms for the server).
constexpr std::chrono::seconds kStopTimeout{5};

constexpr const char kPluginPackages[] =
    "Debian: gstreamer1.0-plugins-base, gstreamer1.0-plugins-good, gstreamer1.0-plugins-bad, "
    "gstreamer1.0-libav";

Status initGstreamer() {
  static std::once_flag once;
  static std::string failure;
  std::call_once(once, [] {
    GError* error = nullptr;
    if (!gst_init_check(nullptr, nullptr, &error)) {
      failure = std::string("GStreamer failed to start: ") + (error ? error->message : "?");
      if (error) g_error_free(error);
    }
  });
  if (!failure.empty()) return fail(ErrorCode::kUnsupported, failure);
  return Status::success();
}

struct GstObjectUnref {
  void operator()(gpointer object) const { gst_object_unref(object); }
};

class GstNetworkStream final : public NetworkStream {
 public:
  explicit GstNetworkStream(const NetworkStreamRequest& request) : request_(request) {}

  ~GstNetworkStream() override {
    releaseFrame();
    if (pipeline_) stop();
    for (const Queued& queued : samples_) gst_sample_unref(queued.sample);
    for (const DecoderWatch& watch : watches_) gst_object_unref(watch.pad);
  }

  Status start() {
    pipeline_.reset(gst_pipeline_new("esframe-network"));
    GstElement* decode = make("uridecodebin");
    GstElement* convert = make("videoconvert");
    GstElement* sink = make("appsink");
    if (!decode || !convert || !sink) return missingElement();
    gst_bin_add_many(GST_BIN(pipeline_.get()), decode, convert, sink, nullptr);
    if (!gst_element_link(convert, sink))
      return fail(ErrorCode::kInternal, request_.shown, ": videoconvert ! appsink do not link");
    decode_ = decode;
    convert_ = convert;
    sink_ = GST_APP_SINK(sink);
    // Dmabufs first: a decoder that offers them hands them over rather than system memory.
    const std::string formats = std::string("video/x-raw(memory:DMABuf),format=(string)") +
                                gst::capsFormatList() + "; video/x-raw,format=(string)" +
                                gst::capsFormatList();
    GstCaps* caps = gst_caps_from_string(formats.c_str());
    g_object_set(sink, "caps", caps, "sync", FALSE, nullptr);
    gst_caps_unref(caps);
    // Samples are taken as they come, into a queue of our own: when the pipeline falls behind,
    // the oldest is dropped there and counted (appsink's own drop keeps no count).
    GstAppSinkCallbacks callbacks{};
    callbacks.eos = &GstNetworkStream::onEos;
    callbacks.new_sample = &GstNetworkStream::onSample;
    gst_app_sink_set_callbacks(sink_, &callbacks, this, nullptr);
    g_object_set(decode, "uri", request_.uri.c_str(), nullptr);
    g_signal_connect(decode, "source-setup", G_CALLBACK(&GstNetworkStream::onSourceSetup), this);
    g_signal_connect(decode, "pad-added", G_CALLBACK(&GstNetworkStream::onPadAdded), this);
    g_signal_connect(pipeline_.get(), "deep-element-added",
                     G_CALLBACK(&GstNetworkStream::onElementAdded), this);
    bus_.reset(gst_element_get_bus(pipeline_.get()));
    if (gst_element_set_state(pipeline_.get(), GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
      if (Status s = busError(); !s) return s;
      return fail(ErrorCode::kDeviceLost, request_.shown, ": the stream does not start");
    }
    return Status::success();
  }

  Result<std::optional<Frame>> pull(int timeout_ms) override {
    releaseFrame();
    // The frames decoded before an error or the end of the stream are delivered first.
    if (std::optional<Skipped> skipped = takeSample(0)) return mapFrame(*skipped);
    if (Status s = busError(); !s) return s.error();
    if (std::optional<Skipped> skipped = takeSample(timeout_ms)) return mapFrame(*skipped);
    if (Status s = busError(); !s) return s.error();
    std::lock_guard lock(mutex_);
    if (eos_) return fail(ErrorCode::kDeviceLost, request_.shown, ": the stream ended");
    return std::optional<Frame>();
  }

 private:
  // Stops the pipeline: no callback runs after this. rtspsrc (GStreamer 1.22) can deadlock in its
  // own state change when the server ends the stream just as it is stopped (its thread waits for
  // a jitter buffer's stream lock, the stop for that thread): the stop runs on a thread of its
  // own, and a pipeline that has not stopped within kStopTimeout is left to the process's end,
  // with one warning, its callbacks cut first.
  void stop() {
    auto stopped = std::make_shared<std::promise<void>>();
    std::future<void> done = stopped->get_future();
    GstElement* pipeline = pipeline_.get();
    try {
      startSignalFreeThread([pipeline, stopped] {
        gst_element_set_state(pipeline, GST_STATE_NULL);
        stopped->set_value();
      }).detach();
    } catch (const std::system_error&) {  // no thread to spare: stopped here, as before
      gst_element_set_state(pipeline, GST_STATE_NULL);
      return;
    }
    if (done.wait_for(kStopTimeout) == std::future_status::ready) return;
    GstAppSinkCallbacks none{};
    gst_app_sink_set_callbacks(sink_, &none, nullptr, nullptr);
    g_signal_handlers_disconnect_by_data(decode_, this);
    g_signal_handlers_disconnect_by_data(pipeline, this);
    {
      std::lock_guard lock(mutex_);
      for (const DecoderWatch& watch : watches_) gst_pad_remove_probe(watch.pad, watch.probe);
    }
    g_host->log_line(LogLevel::kWarning, request_.shown +
                                             ": GStreamer did not stop the stream within " +
                                             std::to_string(kStopTimeout.count()) +
                                             " s; it is left running until esframe exits");
    static_cast<void>(pipeline_.release());  // the stopping thread still holds it
  }

  struct Skipped {
    uint64_t dropped = 0;    // the pipeline fell behind
    uint64_t corrupted = 0;  // decoded from data lost in transit, or lost whole with it
  };

  // The oldest queued sample into sample_, waiting up to timeout_ms for one: the frames skipped
  // before it, or nullopt when none came (or the stream ended).
  std::optional<Skipped> takeSample(int timeout_ms) {
    std::unique_lock lock(mutex_);
    ready_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                    [&] { return !samples_.empty() || eos_; });
    if (samples_.empty()) return std::nullopt;
    sample_ = samples_.front().sample;
    const Skipped skipped{std::exchange(dropped_, 0), samples_.front().corrupted};
    samples_.pop_front();
    return skipped;
  }

  GstElement* make(const char* factory) {
    GstElement* element = gst_element_factory_make(factory, nullptr);
    if (!element && missing_.empty()) missing_ = factory;
    return element;
  }

  Status missingElement() const {
    return fail(ErrorCode::kUnsupported, request_.shown, ": GStreamer has no element ", missing_,
                " (", kPluginPackages, ")");
  }

  static void onSourceSetup(GstElement*, GstElement* source, gpointer data) {
    auto* self = static_cast<GstNetworkStream*>(data);
    const NetworkStreamRequest& r = self->request_;
    GObjectClass* klass = G_OBJECT_GET_CLASS(source);
    if (g_object_class_find_property(klass, "protocols") && r.transport != NetworkTransport::kAuto)
      // GstRTSPLowerTrans: UDP 1, UDP multicast 2, TCP 4.
      gst_util_set_object_arg(G_OBJECT(source), "protocols",
                              r.transport == NetworkTransport::kTcp ? "tcp" : "udp+udp-mcast");
    // A monitor wants the picture now: 200 ms of jitter buffer, not rtspsrc's 2 s.
    if (g_object_class_find_property(klass, "latency"))
      g_object_set(source, "latency", guint(200), nullptr);
    if (!r.user.empty() && g_object_class_find_property(klass, "user-id"))
      g_object_set(source, "user-id", r.user.c_str(), "user-pw", r.password.c_str(), nullptr);
  }

  // A multipart stream (MJPEG over HTTP) may carry parts of other types later: decodebin holds
  // its first pad back until the demuxer says there are no more, which for a camera is never.
  // One stream of JPEGs is what a camera serves.
  // A V4L2 decoder (v4l2h264dec, v4l2fwhtdec) maps its buffers unless asked otherwise: asked to
  // export them as dmabufs before it starts.
  static void onElementAdded(GstBin*, GstBin*, GstElement* element, gpointer data) {
    auto* self = static_cast<GstNetworkStream*>(data);
    GstElementFactory* factory = gst_element_get_factory(element);
    if (factory && g_str_equal(GST_OBJECT_NAME(factory), "multipartdemux"))
      g_object_set(element, "single-stream", TRUE, nullptr);
    if (!GST_IS_VIDEO_DECODER(element)) return;
    self->watch(element);
    if (self->request_.dmabufs == NetworkDmabufs::kDecoders &&
        g_object_class_find_property(G_OBJECT_GET_CLASS(element), "capture-io-mode"))
      gst_util_set_object_arg(G_OBJECT(element), "capture-io-mode", "dmabuf");
  }

  void watch(GstElement* decoder) {
    GstPad* pad = gst_element_get_static_pad(decoder, "sink");
    if (!pad) return;
    const gulong probe = gst_pad_add_probe(
        pad, GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM),
        &GstNetworkStream::onDecoderInput, this, nullptr);
    std::lock_guard lock(mutex_);
    watches_.push_back({pad, probe});
  }

  static void onPadAdded(GstElement*, GstPad* pad, gpointer data) {
    auto* self = static_cast<GstNetworkStream*>(data);
    GstCaps* caps = gst_pad_get_current_caps(pad);
    if (!caps) caps = gst_pad_query_caps(pad, nullptr);
    const bool video =
        caps && gst_caps_get_size(caps) > 0 &&
        g_str_has_prefix(gst_structure_get_name(gst_caps_get_structure(caps, 0)), "video/");
    if (caps) gst_caps_unref(caps);
    if (!video) return;
    GstPad* sink = gst_element_get_static_pad(self->convert_, "sink");
    if (!gst_pad_is_linked(sink)) gst_pad_link(pad, sink);
    gst_object_unref(sink);
  }

  // On GStreamer's streaming thread. A frame decoded from data lost in transit is not queued:
  // it is counted with the next one queued, as is one lost whole.
  static GstFlowReturn onSample(GstAppSink* sink, gpointer data) {
    auto* self = static_cast<GstNetworkStream*>(data);
    GstSample* sample = gst_app_sink_pull_sample(sink);
    if (!sample) return GST_FLOW_OK;
    GstBuffer* buffer = gst_sample_get_buffer(sample);
    std::lock_guard lock(self->mutex_);
    if (buffer && GST_BUFFER_PTS_IS_VALID(buffer)) {
      const TransitDamage::Verdict verdict = self->damage_.decoded(GST_BUFFER_PTS(buffer));
      self->corrupted_ += verdict.lost + verdict.damaged;
      if (verdict.damaged) {
        gst_sample_unref(sample);
        return GST_FLOW_OK;
      }
    }
    self->samples_.push_back({sample, std::exchange(self->corrupted_, 0)});
    if (self->samples_.size() > size_t(self->request_.max_buffers)) {
      // The frame dropped stood after the ones lost before it: the next one carries them.
      const Queued oldest = self->samples_.front();
      self->samples_.pop_front();
      gst_sample_unref(oldest.sample);
      self->samples_.front().corrupted += oldest.corrupted;
      ++self->dropped_;
    }
    self->ready_.notify_one();
    return GST_FLOW_OK;
  }

  // On GStreamer's streaming thread: what goes into the video decoder.
  static GstPadProbeReturn onDecoderInput(GstPad*, GstPadProbeInfo* info, gpointer data) {
    auto* self = static_cast<GstNetworkStream*>(data);
    std::lock_guard lock(self->mutex_);
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
      GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
      if (GST_BUFFER_PTS_IS_VALID(buffer))
        self->damage_.input(GST_BUFFER_PTS(buffer),
                            GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DISCONT),
                            !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT));
      return GST_PAD_PROBE_OK;
    }
    GstEvent* event = GST_PAD_PROBE_INFO_EVENT(info);
    if (event && GST_EVENT_TYPE(event) == GST_EVENT_GAP) {
      GstClockTime timestamp = GST_CLOCK_TIME_NONE, duration = GST_CLOCK_TIME_NONE;
      GstGapFlags flags = GstGapFlags(0);
      gst_event_parse_gap(event, &timestamp, &duration);
      gst_event_parse_gap_flags(event, &flags);
      if ((flags & GST_GAP_FLAG_MISSING_DATA) && GST_CLOCK_TIME_IS_VALID(timestamp))
        self->damage_.missing(timestamp);
    }
    return GST_PAD_PROBE_OK;
  }

  static void onEos(GstAppSink*, gpointer data) {
    auto* self = static_cast<GstNetworkStream*>(data);
    std::lock_guard lock(self->mutex_);
    self->eos_ = true;
    self->ready_.notify_one();
  }

  // What the bus says ended the stream: of the errors waiting there, the first that names a
  // cause (a source's, a missing plugin's) rather than the flow error that follows it
  // ("Internal data stream error"); else the end of the stream.
  Status busError() {
    Status found = Status::success();
    bool specific = false;
    // Once an error is in, the source's own may follow it by a moment (souphttpsrc's comes after
    // typefind's "Can't typefind stream").
    auto next = [&]() {
      const GstClockTime wait = found ? 0 : 200 * GST_MSECOND;
      return gst_bus_timed_pop_filtered(
          bus_.get(), specific ? 0 : wait,
          GstMessageType(GST_MESSAGE_ERROR | GST_MESSAGE_EOS | GST_MESSAGE_ELEMENT));
    };
    while (GstMessage* message = next()) {
      if (gst_is_missing_plugin_message(message)) {
        gchar* what = gst_missing_plugin_message_get_description(message);
        missing_plugin_ = what ? what : "a plugin";
        g_free(what);
      } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS) {
        if (found) found = fail(ErrorCode::kDeviceLost, request_.shown, ": the stream ended");
      } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR && !specific) {
        GError* error = nullptr;
        gchar* debug = nullptr;
        gst_message_parse_error(message, &error, &debug);
        // A source's error (refused, unreachable, not authorised) names the cause; the flow
        // and typefind errors after it name only what it left.
        const bool source = error && error->domain == GST_RESOURCE_ERROR;
        if (found || source) found = errorStatus(GST_MESSAGE_SRC(message), error, debug);
        specific = source || !missing_plugin_.empty();
        if (error) g_error_free(error);
        g_free(debug);
      }
      gst_message_unref(message);
    }
    return found;
  }

  // The detail at the end of an error's debug text: "gstrtspsrc.c(8336): gst_rtspsrc_retrieve_sdp
  // (): /GstPipeline:.../GstRTSPSrc:source:\nFailed to connect. (Generic error)" gives its last
  // line.
  static std::string detail(const gchar* debug) {
    if (!debug) return {};
    std::string text = debug;
    const size_t newline = text.rfind('\n');
    if (newline == std::string::npos) return {};
    text.erase(0, newline + 1);
    return text;
  }

  // `origin`: the element that posted it, named by its factory ("souphttpsrc: Internal data
  // stream error" is all souphttpsrc says of a refused connection).
  Status errorStatus(GstObject* origin, const GError* error, const gchar* debug) const {
    std::string text = error ? error->message : "unknown error";
    if (origin && GST_IS_ELEMENT(origin))
      if (GstElementFactory* factory = gst_element_get_factory(GST_ELEMENT(origin)))
        text = std::string(GST_OBJECT_NAME(factory)) + ": " + text;
    if (const std::string more = detail(debug); !more.empty()) text += " (" + more + ")";
    ErrorCode code = ErrorCode::kDeviceLost;
    std::string why = text;
    if (missing_plugin_.starts_with("text/")) {  // "text/html decoder": a web page
      code = ErrorCode::kUnsupported;
      why =
          "the server sent " + missing_plugin_.substr(0, missing_plugin_.find(' ')) + ", not video";
    } else if (!missing_plugin_.empty()) {
      code = ErrorCode::kUnsupported;
      why = "GStreamer has no plugin for " + missing_plugin_ + " (" + kPluginPackages + ")";
    } else if (error && error->domain == GST_RESOURCE_ERROR &&
               error->code == GST_RESOURCE_ERROR_NOT_FOUND) {
      code = ErrorCode::kNotFound;
    } else if (error && error->domain == GST_RESOURCE_ERROR &&
               error->code == GST_RESOURCE_ERROR_NOT_AUTHORIZED) {
      code = ErrorCode::kPermission;
      why = "the server refused the credentials: " + text;
    } else if (error && error->domain == GST_STREAM_ERROR &&
               (error->code == GST_STREAM_ERROR_CODEC_NOT_FOUND ||
                error->code == GST_STREAM_ERROR_TYPE_NOT_FOUND ||
                error->code == GST_STREAM_ERROR_WRONG_TYPE ||
                error->code == GST_STREAM_ERROR_FORMAT)) {
      code = ErrorCode::kUnsupported;
      why = "not a video stream GStreamer decodes: " + text;
    } else if (error && error->domain == GST_CORE_ERROR &&
               error->code == GST_CORE_ERROR_MISSING_PLUGIN) {
      code = ErrorCode::kUnsupported;
      why = text + " (" + kPluginPackages + ")";
    }
    return fail(code, request_.shown, ": ", why);
  }

  Result<std::optional<Frame>> mapFrame(const Skipped& skipped) {
    GstCaps* caps = gst_sample_get_caps(sample_);
    GstBuffer* buffer = gst_sample_get_buffer(sample_);
    GstVideoInfo info;
    if (!caps || !buffer || !gst_video_info_from_caps(&info, caps))
      return fail(ErrorCode::kCorruptData, request_.shown, ": a sample without video caps");
    if (!gst::pixelFormatOf(GST_VIDEO_INFO_FORMAT(&info)))
      return fail(ErrorCode::kUnsupported, request_.shown, ": GStreamer delivered ",
                  gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(&info)));
    if (Status s = gst::checkCapsLimits(info); !s)
      return fail(s.error().code, request_.shown, ": ", s.error().message);
    if (!gst_video_frame_map(&video_frame_, &info, buffer, GST_MAP_READ))
      return fail(ErrorCode::kIo, request_.shown, ": cannot map a decoded frame");
    mapped_ = true;
    Frame f = gst::frameOf(video_frame_, request_.dmabufs != NetworkDmabufs::kNone);
    const GstClockTime pts = GST_BUFFER_PTS(buffer);
    f.timestamp_ns = GST_CLOCK_TIME_IS_VALID(pts) ? uint64_t(pts) : kNoTimestamp;
    f.dropped = skipped.dropped;
    f.corrupted = skipped.corrupted;
    if (skipped.corrupted > 0 && !warned_damage_) {
      warned_damage_ = true;
      g_host->log_line(LogLevel::kWarning,
                       request_.shown +
                           ": data lost in transit: " + std::to_string(skipped.corrupted) +
                           " frames decoded from it or lost with it were skipped up to the next "
                           "keyframe (further ones are counted in each frame's \"corrupted\")");
    }
    return std::optional<Frame>(f);
  }

  void releaseFrame() {
    if (mapped_) gst_video_frame_unmap(&video_frame_);
    mapped_ = false;
    if (sample_) gst_sample_unref(sample_);
    sample_ = nullptr;
  }

  NetworkStreamRequest request_;
  std::unique_ptr<GstElement, GstObjectUnref> pipeline_;
  std::unique_ptr<GstBus, GstObjectUnref> bus_;
  GstElement* decode_ = nullptr;   // owned by the pipeline
  GstElement* convert_ = nullptr;  // owned by the pipeline
  GstAppSink* sink_ = nullptr;     // owned by the pipeline
  std::string missing_;            // an element factory not found
  std::string missing_plugin_;     // uridecodebin's missing-plugin message
  GstSample* sample_ = nullptr;
  GstVideoFrame video_frame_{};
  bool mapped_ = false;
  bool warned_damage_ = false;
  std::mutex mutex_;  // the queue below, filled on GStreamer's streaming thread
  std::condition_variable ready_;
  struct Queued {
    GstSample* sample;
    uint64_t corrupted;  // frames lost in transit before it
  };
  std::deque<Queued> samples_;
  uint64_t dropped_ = 0;
  uint64_t corrupted_ = 0;  // lost in transit since the last frame queued
  TransitDamage damage_;
  struct DecoderWatch {
    GstPad* pad;  // a reference of our own
    gulong probe;
  };
  std::vector<DecoderWatch> watches_;
  bool eos_ = false;
};

}  // namespace

Result<std::unique_ptr<NetworkStream>> openStream(const NetworkStreamRequest& request) {
  if (Status s = initGstreamer(); !s) return s.error();
  auto stream = std::make_unique<GstNetworkStream>(request);
  if (Status s = stream->start(); !s) return s.error();
  return std::unique_ptr<NetworkStream>(std::move(stream));
}

}  // namespace network_module
}  // namespace esf

extern "C" ESF_MODULE_ENTRY const esf::NetworkModule* esf_network_module_v1(
    const esf::NetworkHost* host) {
  static const esf::NetworkModule kModule{&esf::network_module::openStream};
  esf::network_module::g_host = host;
  return &kModule;
}
