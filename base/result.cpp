#include "esframe/base/result.hpp"

#include <cerrno>

namespace esf {

const char* errorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument:
      return "invalid-argument";
    case ErrorCode::kUnsupported:
      return "unsupported";
    case ErrorCode::kNotFound:
      return "not-found";
    case ErrorCode::kBusy:
      return "busy";
    case ErrorCode::kPermission:
      return "permission";
    case ErrorCode::kCorruptData:
      return "corrupt-data";
    case ErrorCode::kTruncated:
      return "truncated";
    case ErrorCode::kIo:
      return "io";
    case ErrorCode::kDeviceLost:
      return "device-lost";
    case ErrorCode::kTimeout:
      return "timeout";
    case ErrorCode::kTryAgain:
      return "try-again";
    case ErrorCode::kGpu:
      return "gpu";
    case ErrorCode::kGpuHang:
      return "gpu-hang";
    case ErrorCode::kGpuLost:
      return "gpu-lost";
    case ErrorCode::kOutputClosed:
      return "output-closed";
    case ErrorCode::kInternal:
      return "internal";
    case ErrorCode::kOutOfMemory:
      return "out-of-memory";
  }
  return "internal";
}

ErrorCode errorCodeFromErrno(int err) {
  switch (err) {
    case ENOENT:
    case ENXIO:
      return ErrorCode::kNotFound;
    case EACCES:
    case EPERM:
      return ErrorCode::kPermission;
    case EBUSY:
      return ErrorCode::kBusy;
    case ENODEV:
      return ErrorCode::kDeviceLost;
    case EINVAL:
    case ERANGE:
      return ErrorCode::kInvalidArgument;
    case ENOTTY:
    case EOPNOTSUPP:
      return ErrorCode::kUnsupported;
    case ETIMEDOUT:
      return ErrorCode::kTimeout;
    case EAGAIN:
      return ErrorCode::kTryAgain;
    case EPIPE:
      return ErrorCode::kOutputClosed;
    default:
      return ErrorCode::kIo;
  }
}

}  // namespace esf
