#include "esframe/base/result.hpp"

#include <cerrno>

#include "base/enum_names.hpp"

namespace esf {

namespace {

constexpr EnumName<ErrorCode> kErrorCodeNames[] = {
    {ErrorCode::kInvalidArgument, "invalid-argument"},
    {ErrorCode::kUnsupported, "unsupported"},
    {ErrorCode::kNotFound, "not-found"},
    {ErrorCode::kBusy, "busy"},
    {ErrorCode::kPermission, "permission"},
    {ErrorCode::kCorruptData, "corrupt-data"},
    {ErrorCode::kTruncated, "truncated"},
    {ErrorCode::kIo, "io"},
    {ErrorCode::kDeviceLost, "device-lost"},
    {ErrorCode::kTimeout, "timeout"},
    {ErrorCode::kTryAgain, "try-again"},
    {ErrorCode::kGpu, "gpu"},
    {ErrorCode::kGpuHang, "gpu-hang"},
    {ErrorCode::kGpuLost, "gpu-lost"},
    {ErrorCode::kOutputClosed, "output-closed"},
    {ErrorCode::kInternal, "internal"},
    {ErrorCode::kOutOfMemory, "out-of-memory"},
};

}  // namespace

const char* errorCodeName(ErrorCode code) {
  return nameIn(kErrorCodeNames, code, "internal");
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
