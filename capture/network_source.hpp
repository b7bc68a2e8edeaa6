#pragma once
// Network streams: rtsp://, http(s)://, and any URI GStreamer opens, decoded by GStreamer in
// libesframe-network.so (capture/network_module.hpp).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "capture/open_source.hpp"

namespace esf {

// A URI: SCHEME://... with a scheme of letters, digits, '+', '-', '.' (RFC 3986); GStreamer
// opens it (file:// included).
bool isNetworkSpec(std::string_view spec);

// `text` with every URI's password replaced by "***" (rtsp://user:***@host/x), and each of
// `secrets` (a password from a file, or the URI's, raw and as written) wherever it appears.
std::string redactSecrets(std::string text, const std::vector<std::string>& secrets = {});

// Opens the stream and waits for its first frame.
Result<std::unique_ptr<FrameSource>> openNetworkSource(const std::string& spec,
                                                       const SourceOptions& options);

// The backoff between a lost stream's attempts to reconnect: capture/outage_tracker.hpp.
// No frame for this long (network_give_up_ms when it is set) is the stream lost.
inline constexpr int kNetworkStallMs = 10000;

}  // namespace esf
