// A network stream as a FrameSource: one NetworkStream (the GStreamer module's connection) at a
// time, and across outages the events, the backoff and the reconnection.
#include "capture/network_source.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <utility>

#include "capture/dmabuf_allocator.hpp"
#include "capture/network_module.hpp"
#include "capture/outage_tracker.hpp"
#include "esframe/base/log.hpp"

namespace esf {
namespace {

// %XX escapes decoded: a URI's password as GStreamer hands it to the server.
std::string percentDecoded(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(uint8_t(text[i + 1])) &&
        std::isxdigit(uint8_t(text[i + 2]))) {
      out += char(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The URI's user info, "user:password" (empty without one).
std::string_view userInfo(std::string_view uri) {
  const size_t scheme_end = uri.find("://");
  if (scheme_end == std::string_view::npos) return {};
  const size_t start = scheme_end + 3;
  const size_t host_end = std::min(uri.find_first_of("/?#", start), uri.size());
  const size_t at = uri.rfind('@', host_end);
  if (at == std::string_view::npos || at < start) return {};
  return uri.substr(start, at - start);
}

struct Credentials {
  std::string user, password;
};

Result<Credentials> readCredentials(const std::string& path) {
  std::ifstream file(path);
  if (!file) return fail(ErrorCode::kNotFound, "credentials file ", path, ": cannot be read");
  std::string line;
  std::getline(file, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const size_t colon = line.find(':');
  if (colon == std::string::npos || colon == 0)
    return fail(ErrorCode::kInvalidArgument, "credentials file ", path,
                ": its first line must be USER:PASSWORD");
  return Credentials{line.substr(0, colon), line.substr(colon + 1)};
}

class NetworkSource final : public FrameSource, public OutageReporting {
 public:
  NetworkSource(const NetworkModule& module, NetworkStreamRequest request,
                std::vector<std::string> secrets, const SourceOptions& options)
      : module_(module),
        request_(std::move(request)),
        secrets_(std::move(secrets)),
        colorimetry_(options.colorimetry),
        outages_(request_.shown, options.network_give_up_ms),
        stall_ns_(uint64_t(options.network_give_up_ms > 0 ? options.network_give_up_ms
                                                          : kNetworkStallMs) *
                  1000000u) {}

  // The first connection and its first frame: any failure is the open's.
  Status start() {
    Result<std::unique_ptr<NetworkStream>> stream = openStream();
    if (!stream) return stream.error();
    stream_ = std::move(stream.value());
    const uint64_t started = monotonicNs();
    for (;;) {
      Result<std::optional<Frame>> frame = stream_->pull(kSliceMs);
      if (!frame) return redacted(frame.error());
      if (frame->has_value()) {
        pending_ = std::move(**frame);
        outages_.setShape(pending_->width, pending_->height, pending_->format);
        anchor(*pending_);
        return Status::success();
      }
      if (monotonicNs() - started >= stall_ns_)
        return fail(ErrorCode::kDeviceLost, request_.shown, ": no frame within ",
                    secondsText(stall_ns_));
    }
  }

  Result<std::optional<Frame>> next() override {
    if (pending_) {
      current_ = std::move(*pending_);
      pending_.reset();
      return finish(current_);
    }
    for (;;) {
      if (outages_.stopRequested()) return fail(ErrorCode::kTimeout, request_.shown, ": stopped");
      if (stream_) {
        Result<std::optional<Frame>> frame = stream_->pull(kSliceMs);
        if (frame && frame->has_value()) {
          if (Status s = outages_.checkCameBackSame(**frame); !s) return s.error();
          current_ = std::move(**frame);
          return finish(current_);
        }
        const uint64_t now = monotonicNs();
        if (frame && now - last_progress_ns_ < stall_ns_) continue;
        const std::string why =
            frame ? "no frame for " + secondsText(now - last_progress_ns_) : frame.error().message;
        stream_.reset();
        lost(redactSecrets(why, secrets_));
        continue;
      }
      // Offline: wait out the backoff, then try again.
      if (Status s = outages_.waitBeforeRetry(); !s) return s.error();
      if (outages_.stopRequested()) continue;
      Result<std::unique_ptr<NetworkStream>> stream = openStream();
      if (!stream) {
        outages_.lost(redacted(stream.error()).message, sequence_);
        continue;
      }
      stream_ = std::move(stream.value());
      last_progress_ns_ = monotonicNs();
      // The timestamps of a new connection start again: re-anchored at its first frame.
      anchored_ = false;
    }
  }

  std::string name() const override { return request_.shown; }
  bool isLive() const override { return true; }
  int width() const override { return outages_.width(); }
  int height() const override { return outages_.height(); }
  PixelFormat format() const override { return outages_.format(); }
  std::string ioDescription() const override {
    const bool dmabuf = pending_ ? pending_->planes[0].dmabuf_fd >= 0 : dmabuf_frames_ > 0;
    return std::string(dmabuf ? "dmabuf" : "memory") + ", GStreamer";
  }

  ~NetworkSource() override {
    if (dmabuf_frames_ + memory_frames_ > 0)
      logInfo(request_.shown + ": " + std::to_string(dmabuf_frames_) +
              " frames imported from dmabufs without a copy, " + std::to_string(memory_frames_) +
              " from system memory");
  }

  void setOutageHooks(OutageHooks hooks) override { outages_.setHooks(std::move(hooks)); }

 private:
  static constexpr int kSliceMs = 100;  // a wait's step: how soon a stop is seen

  Result<std::unique_ptr<NetworkStream>> openStream() {
    Result<std::unique_ptr<NetworkStream>> stream = module_.open_stream(request_);
    if (!stream) return redacted(stream.error());
    return stream;
  }

  Error redacted(Error error) const {
    error.message = redactSecrets(std::move(error.message), secrets_);
    return error;
  }

  // Stream time to CLOCK_MONOTONIC: each connection's first frame is anchored at its arrival,
  // and the frames after it keep their PTS's spacing.
  void anchor(const Frame& frame) {
    anchored_ = true;
    anchor_ns_ = monotonicNs();
    anchor_pts_ = frame.timestamp_ns;
  }

  Result<std::optional<Frame>> finish(Frame& frame) {
    if (!anchored_) anchor(frame);
    countPath(frame);
    const uint64_t now = monotonicNs();
    frame.timestamp_ns = frame.timestamp_ns == kNoTimestamp || anchor_pts_ == kNoTimestamp ||
                                 frame.timestamp_ns < anchor_pts_
                             ? now
                             : anchor_ns_ + (frame.timestamp_ns - anchor_pts_);
    sequence_ += 1 + frame.dropped + frame.corrupted;
    frame.sequence = sequence_;
    frame.source = request_.shown;
    if (colorimetry_) frame.colorimetry = *colorimetry_;
    last_progress_ns_ = now;
    outages_.delivered(sequence_);
    return std::optional<Frame>(frame);
  }

  // Which way the frames reach the GPU, counted; -v says it when it changes (a new connection
  // may negotiate another decoder).
  void countPath(const Frame& frame) {
    const bool dmabuf = frame.planes[0].dmabuf_fd >= 0;
    ++(dmabuf ? dmabuf_frames_ : memory_frames_);
    if (last_path_dmabuf_ == dmabuf) return;
    last_path_dmabuf_ = dmabuf;
    logInfo(request_.shown + ": " +
            (dmabuf ? "frames come as dmabufs, imported without a copy"
                    : "frames come in system memory"));
  }

  void lost(std::string why) {
    if (why.starts_with(request_.shown + ": ")) why.erase(0, request_.shown.size() + 2);
    outages_.lost(outages_.offline() ? why : "stream lost (" + why + ")", sequence_);
  }

  const NetworkModule& module_;
  NetworkStreamRequest request_;
  std::vector<std::string> secrets_;
  std::optional<Colorimetry> colorimetry_;
  OutageTracker outages_;
  uint64_t stall_ns_;
  std::unique_ptr<NetworkStream> stream_;
  std::optional<Frame> pending_;  // the first frame, pulled at open
  Frame current_;
  bool anchored_ = false;
  uint64_t anchor_ns_ = 0, anchor_pts_ = 0;
  uint64_t sequence_ = 0;
  uint64_t dmabuf_frames_ = 0, memory_frames_ = 0;
  std::optional<bool> last_path_dmabuf_;
  uint64_t last_progress_ns_ = monotonicNs();  // the last frame, or a connection's start
};

}  // namespace

bool isNetworkSpec(std::string_view spec) {
  const size_t colon = spec.find("://");
  if (colon == std::string_view::npos || colon == 0 || !std::isalpha(uint8_t(spec[0])))
    return false;
  for (char c : spec.substr(0, colon))
    if (!std::isalnum(uint8_t(c)) && c != '+' && c != '-' && c != '.') return false;
  return true;
}

std::string redactSecrets(std::string text, const std::vector<std::string>& secrets) {
  // The secrets first: one typed into a URI unencoded ('@', '/') would cut its user info short.
  for (const std::string& secret : secrets) {
    if (secret.empty()) continue;
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3))
      text.replace(at, secret.size(), "***");
  }
  // Every URI's user info: user:password@ becomes user:***@.
  for (size_t at = text.find("://"); at != std::string::npos; at = text.find("://", at + 3)) {
    const size_t start = at + 3;
    const size_t end = std::min(text.find_first_of("/?# \t\n\"'", start), text.size());
    const size_t amp = text.rfind('@', end);
    if (amp == std::string::npos || amp < start) continue;
    const size_t colon = text.find(':', start);
    const size_t hidden_from = colon != std::string::npos && colon < amp ? colon + 1 : start;
    text.replace(hidden_from, amp - hidden_from, "***");
  }
  return text;
}

Result<std::unique_ptr<FrameSource>> openNetworkSource(const std::string& spec,
                                                       const SourceOptions& options) {
  NetworkStreamRequest request;
  request.uri = spec;
  request.transport = options.network_transport;
  std::vector<std::string> secrets;
  const std::string_view info = userInfo(spec);
  if (const size_t colon = info.find(':'); colon != std::string_view::npos) {
    secrets.emplace_back(info.substr(colon + 1));
    secrets.push_back(percentDecoded(info.substr(colon + 1)));
  }
  if (!options.credentials_file.empty()) {
    Result<Credentials> credentials = readCredentials(options.credentials_file);
    if (!credentials) return credentials.error();
    request.user = credentials->user;
    request.password = credentials->password;
    secrets.push_back(credentials->password);
  }
  request.shown = redactSecrets(spec, secrets);
  // The decoder's own dmabufs with expbuf I/O, where the GPU imports foreign ones, as a V4L2
  // camera's; else system memory. A decoder fills no buffers of the GPU's. Not under auto: an
  // import the GPU refuses mid-stream ends the run, where system memory always works, and no
  // board has run this path yet.
  switch (options.io) {
    case IoMode::kAuto:
    case IoMode::kMmap:
      break;
    case IoMode::kExpbuf:
      if (Status s = checkExpbufImport(options.dmabuf_allocator, request.shown, "auto or mmap"); !s)
        return s.error();
      request.dmabufs = NetworkDmabufs::kDecoders;
      break;
    case IoMode::kDmabuf:
      return fail(ErrorCode::kUnsupported, request.shown,
                  ": dmabuf I/O queues the GPU's buffers to a camera; a network stream's decoder "
                  "hands out its own (expbuf I/O)");
  }
  Result<const NetworkModule*> module = loadNetworkModule();
  if (!module) return fail(module.error().code, request.shown, ": ", module.error().message);
  auto source =
      std::make_unique<NetworkSource>(**module, std::move(request), std::move(secrets), options);
  if (Status s = source->start(); !s) return s.error();
  return std::unique_ptr<FrameSource>(std::move(source));
}

}  // namespace esf
