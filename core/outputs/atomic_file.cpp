#include "core/outputs/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "esframe/base/unique_fd.hpp"

namespace esf {

Status writeFileAtomically(const std::string& path, std::string_view bytes) {
  const std::string tmp = path + ".tmp";
  {
    UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!fd.valid())
      return fail(errorCodeFromErrno(errno), "cannot create ", tmp, ": ", std::strerror(errno));
    std::string_view left = bytes;
    while (!left.empty()) {
      ssize_t n = ::write(fd.get(), left.data(), left.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return fail(n < 0 ? errorCodeFromErrno(err) : ErrorCode::kIo, "cannot write ", tmp, ": ",
                    std::strerror(err));
      }
      left.remove_prefix(size_t(n));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return fail(errorCodeFromErrno(err), "cannot rename ", tmp, " to ", path, ": ",
                std::strerror(err));
  }
  return Status::success();
}

}  // namespace esf
