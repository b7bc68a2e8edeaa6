#pragma once
// The concrete sources behind openSource() (open_source.cpp picks one from the spec).
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/atomic_file.hpp"
#include "capture/open_source.hpp"

namespace esf {

// spec: "pattern" (or empty), or "pattern:loop=N": N frames rendered and encoded before the
// run, then handed out in turn (frames already in memory, as from a camera: no rendering in the
// frame loop).
bool isPatternSpec(std::string_view spec);
Result<std::unique_ptr<FrameSource>> openPatternSource(std::string_view spec,
                                                       const SourceOptions& options);
// A V4L2 device by path, card name or bus info.
Result<std::unique_ptr<FrameSource>> openV4l2Source(const std::string& spec,
                                                    const SourceOptions& options);
// Still images (stb_image): each file one frame, in order.
Result<std::unique_ptr<FrameSource>> openImageSequence(std::vector<std::string> files);
Result<std::unique_ptr<FrameSource>> openY4mSource(const std::string& path,
                                                   const SourceOptions& options);
Result<std::unique_ptr<FrameSource>> openRawSource(const std::string& path,
                                                   const SourceOptions& options);
// Standard input ("-") or a named pipe: Y4M when it starts with the Y4M magic, else headerless
// raw frames (options.width/height/format). Read once, never rewound.
Result<std::unique_ptr<FrameSource>> openStreamSource(const std::string& spec,
                                                      const SourceOptions& options);
// Wraps `inner`: writes every frame's tight planes to options.dump_raw_dir, each file whole or
// not at all; an existing file is an error unless `existing` says to replace it.
Result<std::unique_ptr<FrameSource>> wrapDumpRaw(std::unique_ptr<FrameSource> inner,
                                                 const std::string& dir, ExistingFile existing);

// A V4L2 camera that goes away and comes back as one source (SourceConfig::reconnect): `first`,
// then, after each loss (ErrorCode::kDeviceLost), what `open` opens after a backoff.
using SourceOpener = std::function<Result<std::unique_ptr<FrameSource>>()>;
std::unique_ptr<FrameSource> reopenWhenLost(std::unique_ptr<FrameSource> first, SourceOpener open,
                                            const SourceOptions& options);

// True if a V4L2 device matches `spec` by card name or bus info (not a path).
bool looksLikeV4l2Device(const std::string& spec);

}  // namespace esf
