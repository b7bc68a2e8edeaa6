#pragma once
// The boundary between libesframe and libesframe-network.so, the module that holds everything
// that includes GStreamer's headers (gst_network_stream.cpp). libesframe loads it on the first
// network spec (network_loader.cpp), so a run without one never loads GStreamer. The module
// makes one connection at a time and hands out its frames; libesframe's NetworkSource
// (network_source.cpp) keeps the stream going across outages. Same compiler, same libesframe: C++
// types cross it; errors cross as Result, never as exceptions.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "base/shared_module.hpp"
#include "esframe/base/log.hpp"
#include "esframe/frame.hpp"
#include "esframe/source.hpp"

namespace esf {

// What the module uses of libesframe (LibcameraHost in libcamera_module.hpp says why a table).
struct NetworkHost {
  void (*log_line)(LogLevel level, std::string_view message);
};

// Which of a decoder's frames come as dmabufs, for the GPU to import without a copy.
enum class NetworkDmabufs {
  kNone,      // every frame in system memory (IoMode::kMmap, or no GPU backend to import)
  kDecoders,  // the dmabufs a decoder hands out (a V4L2 decoder is asked for capture-io-mode
              // dmabuf): for a GPU that imports foreign dmabufs
};

struct NetworkStreamRequest {
  std::string uri;    // as given: it may carry credentials
  std::string shown;  // the URI without its password: what every message names
  NetworkTransport transport = NetworkTransport::kAuto;
  std::string user, password;  // from a credentials file; empty: those of the URI
  int max_buffers = 8;         // decoded frames queued before the oldest is dropped
  NetworkDmabufs dmabufs = NetworkDmabufs::kNone;
};

// One connection, from its start to its end.
class NetworkStream {
 public:
  virtual ~NetworkStream() = default;
  // Within timeout_ms: the next frame (valid until the next pull or the stream's destruction),
  // nullopt when none came, or the error that ended the stream: kDeviceLost (closed, refused,
  // unreachable, ended), kPermission (credentials refused), kUnsupported (a GStreamer element or
  // plugin missing, no video in the stream). Its timestamp_ns is the buffer's PTS in stream time,
  // kNoTimestamp without one; `dropped` the frames dropped since the one before, queue overflow.
  // A frame that came as dmabufs carries their fds (FramePlane::dmabuf_fd) beside its mapping.
  virtual Result<std::optional<Frame>> pull(int timeout_ms) = 0;
};

inline constexpr uint64_t kNoTimestamp = ~uint64_t(0);

struct NetworkModule {
  Result<std::unique_ptr<NetworkStream>> (*open_stream)(const NetworkStreamRequest& request);
};

inline constexpr const char kNetworkModuleFile[] = "libesframe-network.so";
inline constexpr const char kNetworkModuleEntry[] = "esf_network_module_v1";

// libesframe's side: the module's table, loaded on first use (network_loader.cpp), or, in a build
// without GStreamer, what says so (network_unavailable.cpp).
Result<const NetworkModule*> loadNetworkModule();

namespace network_module {
Result<std::unique_ptr<NetworkStream>> openStream(const NetworkStreamRequest& request);
extern const NetworkHost* g_host;
}  // namespace network_module

}  // namespace esf

// The module's one exported entry point: keeps `host` (valid for the process's lifetime) and
// returns the table above, valid as long.
extern "C" ESF_MODULE_ENTRY const esf::NetworkModule* esf_network_module_v1(
    const esf::NetworkHost* host);
