#include "core/outputs/stdout_writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "esframe/sink.hpp"

namespace esf {

Status writeRecord(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE) return fail(ErrorCode::kOutputClosed, "stdout closed");
      return fail(errorCodeFromErrno(errno), "cannot write to stdout: ", std::strerror(errno));
    }
    bytes.remove_prefix(size_t(n));
  }
  return Status::success();
}

}  // namespace esf
