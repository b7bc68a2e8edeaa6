#pragma once
// A file that appears whole or not at all: written under a temporary name in its folder (created
// O_EXCL, so a symlink planted there is never followed), then linked or renamed into place.
// A failure (ENOSPC on a full card) removes the temporary file: no half-written file is left.
// An existing file is refused unless replacing was asked for; a symlink in its place is replaced
// itself (rename), never written through.
#include <cstddef>
#include <cstdint>
#include <string>

#include "esframe/base/result.hpp"
#include "esframe/base/unique_fd.hpp"

namespace esf {

enum class ExistingFile { kRefuse, kReplace };

// Files named by a frame's sequence number (--dump-raw, --output png). A driver that repeats a
// number (vivid's HDMI input under load does) replaces the files written for the frame before:
// they hold the last frame of that number and the run goes on. Any other file already there
// follows `existing`.
class SequenceNamedFiles {
 public:
  explicit SequenceNamedFiles(ExistingFile existing) : existing_(existing) {}
  ExistingFile existingFor(uint64_t sequence) const {
    return wrote_any_ && sequence == last_written_ ? ExistingFile::kReplace : existing_;
  }
  void wrote(uint64_t sequence) { wrote_any_ = true, last_written_ = sequence; }

 private:
  ExistingFile existing_;
  bool wrote_any_ = false;
  uint64_t last_written_ = 0;
};

class AtomicFile {
 public:
  static Result<AtomicFile> create(std::string path, ExistingFile existing);
  ~AtomicFile();  // not committed: the temporary file is removed
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  Status write(const void* data, size_t size);
  // Closes the temporary file (reporting late errors) and puts it in place under `path`.
  Status commit();

 private:
  AtomicFile(std::string path, std::string temp, UniqueFd fd, ExistingFile existing);
  Error failure(const char* what, int err);
  std::string path_;
  std::string temp_;  // empty once committed or removed
  UniqueFd fd_;
  ExistingFile existing_;
};

}  // namespace esf
