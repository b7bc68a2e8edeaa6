#include "core/outputs/mqtt_output.hpp"

#include <mosquitto.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

#include "base/signal_free_thread.hpp"
#include "core/outputs/jsonl_output.hpp"
#include "esframe/base/log.hpp"

namespace esf {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kFirstBackoff{250};
constexpr std::chrono::milliseconds kMaxBackoff{8000};
constexpr int kLoopTimeoutMs = 20;                // how long the worker waits on the socket
constexpr std::chrono::seconds kFlushTimeout{3};  // finish(): time to hand over what is queued

struct MosquittoDeleter {
  void operator()(mosquitto* m) const { mosquitto_destroy(m); }
};
using MosquittoPtr = std::unique_ptr<mosquitto, MosquittoDeleter>;

// mosquitto_strerror's text without its final full stop (it goes inside longer lines).
std::string errorText(int rc) {
  std::string text = rc == MOSQ_ERR_ERRNO ? std::strerror(errno) : mosquitto_strerror(rc);
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

// What waits for the worker, in order: a frame's JSONL line (to TOPIC, with "mqtt_dropped"
// added), a health event's (to TOPIC/events), the camera's state after the events before it
// (to TOPIC/health, retained, QoS 1: what a dashboard that connects later is given), or a
// retained message to `topic` (Home Assistant's discovery configs and state, QoS 1).
struct Message {
  enum class Kind { kFrame, kEvent, kState, kRetained };
  std::string line;
  Kind kind = Kind::kFrame;
  std::string topic;  // kRetained only
};

const char* healthState(bool offline, bool black, bool frozen, bool covered) {
  return offline ? "offline" : black ? "black" : frozen ? "frozen" : covered ? "covered" : "ok";
}

// The message for one frame: its JSONL object with "mqtt_dropped": dropped appended.
std::string mqttPayload(const std::string& jsonl_line, uint64_t dropped) {
  // The JSONL line ends with "}\n": reopen the object for one more member.
  const size_t close = jsonl_line.rfind('}');
  return jsonl_line.substr(0, close) + ",\"mqtt_dropped\":" + std::to_string(dropped) + "}";
}

}  // namespace

class MqttOutput : public FrameSink {
 public:
  MqttOutput(const MqttSinkOptions& o, MosquittoPtr m) : options_(o), mosq_(std::move(m)) {
    const bool tls = !o.cafile.empty() || !o.capath.empty();
    port_ = o.port > 0 ? o.port : tls ? 8883 : 1883;
    name_ = "mqtt://" + o.host + ":" + std::to_string(port_) + "/" + o.topic;
    status_topic_ = o.will_topic.empty() ? o.topic + "/status" : o.will_topic;
    events_topic_ = o.topic + "/events";
    health_topic_ = o.topic + "/health";
    discovery_ = !o.discovery_prefix.empty() && !o.discovery_remove;
  }
  ~MqttOutput() override { stopWorker(); }

  Status configure() {
    mosquitto_user_data_set(mosq_.get(), this);
    mosquitto_connect_callback_set(mosq_.get(), [](mosquitto*, void* self, int rc) {
      static_cast<MqttOutput*>(self)->onConnect(rc);
    });
    mosquitto_disconnect_callback_set(mosq_.get(), [](mosquitto*, void* self, int) {
      auto* out = static_cast<MqttOutput*>(self);
      out->connected_ = false;
      // QoS 0 messages in flight are gone with the connection; QoS 1 ones are resent.
      if (out->options_.qos == 0) out->unacknowledged_ = 0;
    });
    mosquitto_publish_callback_set(mosq_.get(), [](mosquitto*, void* self, int) {
      --static_cast<MqttOutput*>(self)->unacknowledged_;
    });
    const MqttSinkOptions& o = options_;
    int rc = MOSQ_ERR_SUCCESS;
    const char* step = "";
    auto check = [&](const char* what, int r) {
      if (rc == MOSQ_ERR_SUCCESS && r != MOSQ_ERR_SUCCESS) rc = r, step = what;
    };
    if (!o.username.empty())
      check("username",
            mosquitto_username_pw_set(mosq_.get(), o.username.c_str(),
                                      o.password.empty() ? nullptr : o.password.c_str()));
    if (!o.cafile.empty() || !o.capath.empty()) {
      check("TLS certificates",
            mosquitto_tls_set(mosq_.get(), o.cafile.empty() ? nullptr : o.cafile.c_str(),
                              o.capath.empty() ? nullptr : o.capath.c_str(),
                              o.cert.empty() ? nullptr : o.cert.c_str(),
                              o.key.empty() ? nullptr : o.key.c_str(), nullptr));
      if (!o.tls_version.empty())
        check("tls-version",
              mosquitto_tls_opts_set(mosq_.get(), 1, o.tls_version.c_str(), nullptr));
      check("insecure", mosquitto_tls_insecure_set(mosq_.get(), o.insecure));
    }
    const std::string offline = "offline";
    check("will", mosquitto_will_set(mosq_.get(), status_topic_.c_str(), int(offline.size()),
                                     offline.data(), 1, true));
    if (rc != MOSQ_ERR_SUCCESS)
      return fail(ErrorCode::kInvalidArgument, name_, ": ", step, ": ", errorText(rc));
    if (o.discovery_remove) {
      std::lock_guard lock(mutex_);
      for (HaMessage& m : haDiscoveryRemovals(o)) queueRetained(std::move(m));
    }
    try {
      worker_ = startSignalFreeThread([this] { workerLoop(); });
    } catch (const std::system_error& e) {
      return fail(ErrorCode::kInternal, name_, ": cannot start the worker thread: ", e.what());
    }
    return Status::success();
  }

  // With options.required: waits for the first connection.
  Status awaitConnection() {
    std::unique_lock lock(mutex_);
    const bool up = wake_.wait_for(lock, std::chrono::milliseconds(options_.connect_timeout_ms),
                                   [&] { return connected_.load() || fatal_; });
    if (up && connected_) return Status::success();
    const std::string why =
        last_error_.empty()
            ? "cannot connect: no answer in " + std::to_string(options_.connect_timeout_ms) + " ms"
            : last_error_;
    // `why` begins with what failed ("cannot connect: ...").
    return fail(fatal_ ? ErrorCode::kNotFound : ErrorCode::kTimeout, name_, ": ", why);
  }

  Status write(const FrameResult& frame) override {
    const bool sampled = frames_++ % uint64_t(options_.every) == 0;
    std::string line = sampled ? jsonlLine(frame) : std::string();
    std::lock_guard lock(mutex_);
    if (sampled) enqueue(Message{std::move(line), Message::Kind::kFrame, {}});
    // Events are rare and each one matters: every one goes out, whatever `every` says.
    if (frame.health) queueEvents(frame.events);
    if (discovery_) discoveryFrame(frame);
    return Status::success();
  }

  Status writeEvents(const std::vector<HealthEvent>& events) override {
    std::lock_guard lock(mutex_);
    queueEvents(events);
    return Status::success();
  }

  Status finish() override {
    // Give the worker a moment to hand over what is queued, then say goodbye.
    const Clock::time_point deadline = Clock::now() + kFlushTimeout;
    {
      std::unique_lock lock(mutex_);
      // Until the first attempt has an outcome (a slow resolver can take seconds) the user has
      // not been told why nothing went out: wait for it too, within the same bound.
      wake_.wait_until(lock, deadline,
                       [&] { return (queue_.empty() && idle_) || (!connected_ && attempted_); });
      if (!queue_.empty()) {
        logWarning(name_ + ": " + std::to_string(queue_.size()) +
                   " message(s) not delivered at the end of the run" +
                   (attempted_ ? ""
                               : " (still connecting after " +
                                     std::to_string(kFlushTimeout.count()) + " s)"));
      }
    }
    stopWorker();
    return Status::success();
  }

 private:
  // Under mutex_.
  void enqueue(Message m) {
    if (queue_.size() >= size_t(options_.queue)) {
      queue_.pop_front();
      ++dropped_;
    }
    queue_.push_back(std::move(m));
  }

  // Under mutex_.
  void queueRetained(HaMessage m) {
    enqueue(Message{std::move(m.payload), Message::Kind::kRetained, std::move(m.topic)});
  }

  // Under mutex_: Home Assistant's configs at the first frame (what it carries says which
  // entities apply) and again when a later frame carries more (cropdetect's first figures come
  // after its skipped frames), then the state when a binary sensor changes, or every state
  // interval.
  void discoveryFrame(const FrameResult& frame) {
    const HaEntities entities = haEntitiesUnion(ha_entities_, haEntitiesOf(frame));
    const bool grew = ha_known_ && entities != ha_entities_;
    if (!ha_known_ || grew) {
      ha_entities_ = entities;
      ha_known_ = true;
      for (HaMessage& m : haDiscoveryConfigs(options_, ha_entities_)) queueRetained(std::move(m));
    }
    ha_figures_ = haFiguresOf(frame);
    last_frame_at_ = Clock::now();
    ++ha_frames_;
    const HaFlags flags{black_, frozen_, covered_, true};
    const bool changed = !ha_state_sent_ || flags != ha_flags_ || grew;
    const auto interval = std::chrono::seconds(options_.discovery_state_every_s);
    if (!changed && last_frame_at_ - ha_state_at_ < interval) return;
    // The frame rate over the frames since the last state, in the stream's time.
    double fps = -1;
    if (ha_state_sent_ && frame.ts_ns > ha_state_ts_ns_ && ha_frames_ > 0)
      fps = double(ha_frames_) * 1e9 / double(frame.ts_ns - ha_state_ts_ns_);
    ha_flags_ = flags;
    queueHaState(fps);
    ha_state_ts_ns_ = frame.ts_ns;
    ha_frames_ = 0;
  }

  // Under mutex_.
  void queueHaState(double fps) {
    queueRetained(
        {haStateTopic(options_), haStatePayload(ha_figures_, ha_entities_, ha_flags_, fps)});
    ha_state_sent_ = true;
    ha_state_at_ = Clock::now();
  }

  // Under mutex_: the camera's connectivity off (until the next frame), once.
  void discoveryCameraGone() {
    if (!discovery_ || !ha_known_ || !ha_flags_.camera) return;
    ha_flags_.camera = false;
    queueHaState(-1);
  }

  // Under mutex_, from the worker: no frame for three state intervals (at least 10 s) turns the
  // camera's connectivity off, whatever the source (a network stream, a stalled V4L2 device).
  void discoveryWatchdog() {
    const auto silence = std::max<std::chrono::seconds>(
        std::chrono::seconds(3 * options_.discovery_state_every_s), std::chrono::seconds(10));
    if (Clock::now() - last_frame_at_ >= silence) discoveryCameraGone();
  }

  // Under mutex_: the events, then the state they leave when it changed (and at the first frame).
  void queueEvents(const std::vector<HealthEvent>& events) {
    for (const HealthEvent& e : events) {
      std::string line = jsonlEventLine(e);
      line.pop_back();  // the '\n'
      enqueue(Message{std::move(line), Message::Kind::kEvent, {}});
      if (e.type == HealthEventType::kBlackStart) black_ = true;
      if (e.type == HealthEventType::kBlackEnd) black_ = false;
      if (e.type == HealthEventType::kFreezeStart) frozen_ = true;
      if (e.type == HealthEventType::kFreezeEnd) frozen_ = false;
      if (e.type == HealthEventType::kCoveredStart) covered_ = true;
      if (e.type == HealthEventType::kCoveredEnd) covered_ = false;
      if (e.type == HealthEventType::kCameraOffline) offline_ = true;
      if (e.type == HealthEventType::kCameraOnline) offline_ = false;
    }
    // A network source says when its stream is gone: connectivity off now, not at the watchdog.
    if (offline_) discoveryCameraGone();
    const std::string state = healthState(offline_, black_, frozen_, covered_);
    if (state != health_state_) {
      health_state_ = state;
      enqueue(Message{state, Message::Kind::kState, {}});
    }
  }

  void onConnect(int rc) {
    if (rc != 0) {
      {
        std::lock_guard lock(mutex_);
        last_error_ = std::string("refused: ") + mosquitto_connack_string(rc);
        attempted_ = true;
      }
      wake_.notify_all();
      return;
    }
    publishStatus("online");
    if (ever_connected_) logInfo(name_ + ": reconnected");
    {
      std::lock_guard lock(mutex_);
      // A broker without persistence forgets retained messages when it restarts: announce again.
      if (ever_connected_ && discovery_ && ha_known_) {
        for (HaMessage& m : haDiscoveryConfigs(options_, ha_entities_)) queueRetained(std::move(m));
        queueHaState(-1);
      }
      connected_ = true;
      ever_connected_ = true;
      attempted_ = true;
      outage_reported_ = false;
      last_error_.clear();
    }
    backoff_ = kFirstBackoff;
    wake_.notify_all();
  }

  // One warning per outage (the first failed attempt, or a lost connection); debug lines after.
  void reportFailure(const std::string& what) {
    std::lock_guard lock(mutex_);
    last_error_ = what;
    attempted_ = true;
    // After finish() the end-of-run line has spoken for this outage already.
    if (outage_reported_ || stop_) {
      logDebug(name_ + ": " + what);
      return;
    }
    outage_reported_ = true;
    if (!options_.required || ever_connected_)
      logWarning(name_ + ": " + what + "; retrying in the background (queue=" +
                 std::to_string(options_.queue) + ", the oldest messages are dropped when full)");
  }

  void waitBackoff() {
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, backoff_, [&] { return stop_; });
    backoff_ = std::min(backoff_ * 2, kMaxBackoff);
  }

  void publishQueued() {
    std::deque<Message> batch;
    uint64_t dropped = 0;
    {
      std::lock_guard lock(mutex_);
      batch.swap(queue_);
      dropped = dropped_;
      idle_ = batch.empty() && unacknowledged_ == 0;
    }
    while (!batch.empty()) {
      const Message& m = batch.front();
      int rc = MOSQ_ERR_SUCCESS;
      if (m.kind == Message::Kind::kFrame) {
        const std::string payload = mqttPayload(m.line, dropped);
        rc = mosquitto_publish(mosq_.get(), nullptr, options_.topic.c_str(), int(payload.size()),
                               payload.data(), options_.qos, options_.retain);
      } else if (m.kind == Message::Kind::kRetained) {
        rc = mosquitto_publish(mosq_.get(), nullptr, m.topic.c_str(), int(m.line.size()),
                               m.line.data(), 1, true);
      } else {
        const bool state = m.kind == Message::Kind::kState;
        const std::string& topic = state ? health_topic_ : events_topic_;
        rc = mosquitto_publish(mosq_.get(), nullptr, topic.c_str(), int(m.line.size()),
                               m.line.data(), state ? 1 : options_.qos, state);
      }
      if (rc != MOSQ_ERR_SUCCESS) break;  // not connected after all: keep the rest queued
      ++unacknowledged_;
      batch.pop_front();
    }
    std::lock_guard lock(mutex_);
    // What could not go out returns to the front, still oldest first, within the bound.
    while (!batch.empty()) {
      if (queue_.size() >= size_t(options_.queue)) {
        ++dropped_;
      } else {
        queue_.push_front(std::move(batch.back()));
      }
      batch.pop_back();
    }
    if (idle_) wake_.notify_all();
  }

  void workerLoop() {
    bool linked = false;   // a socket exists (connecting or connected)
    bool session = false;  // the broker accepted it (CONNACK)
    for (;;) {
      {
        std::lock_guard lock(mutex_);
        if (stop_) break;
        discoveryWatchdog();
      }
      if (!linked) {
        const int rc =
            mosquitto_connect_async(mosq_.get(), options_.host.c_str(), port_, options_.keepalive);
        if (rc != MOSQ_ERR_SUCCESS) {
          if (rc == MOSQ_ERR_EAI && !ever_connected_) {
            std::lock_guard lock(mutex_);
            fatal_ = true;  // an unknown host name: --output-required stops at once
          }
          reportFailure(std::string("cannot connect: ") + errorText(rc));
          wake_.notify_all();
          waitBackoff();
          continue;
        }
        linked = true;
      }
      const int rc = mosquitto_loop(mosq_.get(), kLoopTimeoutMs, 1);
      if (rc != MOSQ_ERR_SUCCESS) {
        // The disconnect callback may have cleared connected_ already: ask `session` instead.
        const bool was_connected = std::exchange(session, false);
        connected_ = false;
        linked = false;
        reportFailure((was_connected ? "connection lost: " : "cannot connect: ") + errorText(rc));
        wake_.notify_all();
        waitBackoff();
        continue;
      }
      if (connected_) {
        session = true;
        publishQueued();
      }
    }
    if (linked && connected_) {
      publishStatus("offline");
      // Hand over the last messages and the status before the DISCONNECT.
      const Clock::time_point deadline = Clock::now() + kFlushTimeout;
      while (unacknowledged_ > 0 && Clock::now() < deadline &&
             mosquitto_loop(mosq_.get(), kLoopTimeoutMs, 1) == MOSQ_ERR_SUCCESS) {
      }
      mosquitto_disconnect(mosq_.get());
      mosquitto_loop(mosq_.get(), kLoopTimeoutMs, 1);
    }
  }

  // Retained, QoS 1: what a dashboard shows for this board.
  void publishStatus(const std::string& status) {
    if (mosquitto_publish(mosq_.get(), nullptr, status_topic_.c_str(), int(status.size()),
                          status.data(), 1, true) == MOSQ_ERR_SUCCESS)
      ++unacknowledged_;
  }

  void stopWorker() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    if (worker_.joinable()) worker_.join();
  }

  const MqttSinkOptions options_;
  MosquittoPtr mosq_;
  int port_ = 0;
  std::string name_;          // mqtt://host:port/topic, for messages
  std::string status_topic_;  // last will and online/offline
  std::string events_topic_;  // --health: TOPIC/events
  std::string health_topic_;  // --health: TOPIC/health, retained
  uint64_t frames_ = 0;       // pipeline thread only

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Message> queue_;                              // JSONL lines waiting for the worker
  bool black_ = false, frozen_ = false, covered_ = false;  // --health: intervals left open
  bool offline_ = false;      // a network source's stream is gone (camera_offline, camera_online)
  std::string health_state_;  // the last state queued for TOPIC/health
  bool discovery_ = false;    // Home Assistant discovery (not its removal)
  bool ha_known_ = false, ha_state_sent_ = false;
  HaEntities ha_entities_;                       // from the frames so far
  HaFigures ha_figures_;                         // the last frame's
  HaFlags ha_flags_;                             // as last queued
  uint64_t ha_frames_ = 0, ha_state_ts_ns_ = 0;  // frames since the last state, its frame's time
  Clock::time_point last_frame_at_, ha_state_at_;
  uint64_t dropped_ = 0;
  bool stop_ = false, idle_ = true, fatal_ = false;
  bool ever_connected_ = false, outage_reported_ = false;
  bool attempted_ = false;  // the first connection attempt has an outcome
  std::string last_error_;
  std::chrono::milliseconds backoff_ = kFirstBackoff;  // worker only
  std::atomic<bool> connected_{false};
  std::atomic<int64_t> unacknowledged_{0};  // published, not yet acknowledged (worker only)
  std::thread worker_;
};

namespace mqtt_module {

Result<std::unique_ptr<FrameSink>> openMqttOutput(const MqttSinkOptions& o) {
  static std::once_flag init_once;
  std::call_once(init_once, [] { mosquitto_lib_init(); });
  const std::string id = o.id.empty() ? "esframe-" + std::to_string(getpid()) : o.id;
  MosquittoPtr m(mosquitto_new(id.c_str(), true, nullptr));
  if (!m) return fail(ErrorCode::kIo, "mqtt: cannot create a client: ", std::strerror(errno));
  auto out = std::make_unique<MqttOutput>(o, std::move(m));
  if (Status s = out->configure(); !s) return s.error();
  if (o.required)
    if (Status s = out->awaitConnection(); !s) return s.error();
  return std::unique_ptr<FrameSink>(std::move(out));
}

const MqttHost* g_host = nullptr;

}  // namespace mqtt_module

}  // namespace esf

const esf::MqttModule* esf_mqtt_module_v5(const esf::MqttHost* host) {
  esf::mqtt_module::g_host = host;
  static const esf::MqttModule module{esf::mqtt_module::openMqttOutput};
  return &module;
}
