#include "base/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace esf {
namespace {

Error exists(const std::string& path) {
  return fail(ErrorCode::kIo, "cannot write ", path, ": a file of that name exists (not replaced)");
}

}  // namespace

AtomicFile::AtomicFile(std::string path, std::string temp, UniqueFd fd, ExistingFile existing)
    : path_(std::move(path)), temp_(std::move(temp)), fd_(std::move(fd)), existing_(existing) {}

AtomicFile::AtomicFile(AtomicFile&& o) noexcept
    : path_(std::move(o.path_)),
      temp_(std::exchange(o.temp_, std::string())),
      fd_(std::move(o.fd_)),
      existing_(o.existing_) {}

AtomicFile::~AtomicFile() {
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

Result<AtomicFile> AtomicFile::create(std::string path, ExistingFile existing) {
  struct stat st;
  if (existing == ExistingFile::kRefuse && ::lstat(path.c_str(), &st) == 0) return exists(path);
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string temp = dir + "." + name + ".XXXXXX";
  std::vector<char> buffer(temp.begin(), temp.end());
  buffer.push_back('\0');
  UniqueFd fd(::mkostemp(buffer.data(), O_CLOEXEC));  // O_CREAT | O_EXCL: never follows a link
  if (!fd.valid())
    return fail(errorCodeFromErrno(errno), "cannot create a file in ", dir.empty() ? "." : dir,
                " for ", path, ": ", std::strerror(errno));
  ::fchmod(fd.get(), 0644);  // mkostemp makes 0600; frames are for other users too
  return AtomicFile(std::move(path), buffer.data(), std::move(fd), existing);
}

Error AtomicFile::failure(const char* what, int err) {
  ::unlink(temp_.c_str());
  temp_.clear();
  fd_.reset();
  return fail(errorCodeFromErrno(err), "cannot ", what, " ", path_, ": ", std::strerror(err));
}

Status AtomicFile::write(const void* data, size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_.get(), bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return failure("write", n < 0 ? errno : EIO);
    bytes += n, size -= size_t(n);
  }
  return {};
}

Status AtomicFile::commit() {
  if (::close(fd_.release()) != 0) return failure("write", errno);  // NFS reports late errors
  if (existing_ == ExistingFile::kReplace) {
    // rename replaces a symlink at `path` itself, never the file it points to.
    if (std::rename(temp_.c_str(), path_.c_str()) != 0) return failure("rename into", errno);
  } else {
    // link() fails with EEXIST on anything at `path`, a planted symlink included: no race
    // between a check and the write.
    if (::link(temp_.c_str(), path_.c_str()) != 0) {
      if (errno != EEXIST) return failure("link into", errno);
      ::unlink(temp_.c_str());
      temp_.clear();
      return exists(path_);
    }
    ::unlink(temp_.c_str());
  }
  temp_.clear();
  return {};
}

}  // namespace esf
