#include "platform/program_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "base/atomic_file.hpp"
#include "base/cache_dir.hpp"
#include "esframe/base/unique_fd.hpp"
#include "esframe/version.hpp"

#define XXH_INLINE_ALL  // header-only: no library to link, static libesframe included
#include <xxhash.h>

namespace esf {
namespace {

constexpr char kMagic[8] = {'E', 'S', 'F', 'P', 'R', 'O', 'G', '1'};
// magic, key hash, format, length, checksum
constexpr size_t kHeaderSize = sizeof kMagic + 16 + 4 + 4 + 8;
// A program binary larger than this is not one (a corrupt length field).
constexpr uint32_t kMaxBinary = 64u << 20;

struct KeyHash {
  uint8_t bytes[16];
};

KeyHash keyHash(const ProgramBinaries& binaries, std::string_view sources) {
  const std::string driver = binaries.driverIdentity() + '\0' + ESFRAME_VERSION_STRING + '\0';
  XXH3_state_t state;
  XXH3_128bits_reset(&state);
  XXH3_128bits_update(&state, driver.data(), driver.size());
  XXH3_128bits_update(&state, sources.data(), sources.size());
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest(&state));
  KeyHash k;
  std::memcpy(k.bytes, canonical.digest, sizeof k.bytes);
  return k;
}

std::string hex(const KeyHash& k) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t b : k.bytes) s += {digits[b >> 4], digits[b & 15]};
  return s;
}

std::string entryPath(const std::string& dir, const KeyHash& key) {
  return dir + "/" + hex(key) + ".bin";
}

// The whole file, or nullopt with *why.
std::optional<std::vector<uint8_t>> readFile(const std::string& path, std::string* why) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  struct stat st {};
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0) {
    *why = std::strerror(errno);
    return std::nullopt;
  }
  if (st.st_size > off_t(kHeaderSize + kMaxBinary)) {
    *why = "larger than any program binary";
    return std::nullopt;
  }
  std::vector<uint8_t> data(size_t(st.st_size));
  size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::read(fd.get(), data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += size_t(n);
  }
  data.resize(done);
  return data;
}

// The header and the binary, whole or not at all.
Status writeEntry(const std::string& dir, const std::string& path,
                  const std::vector<uint8_t>& header, const ProgramBinary& binary) {
  if (Status s = makeDirectories(dir); !s) return s;
  Result<AtomicFile> file = AtomicFile::create(path, ExistingFile::kReplace);
  if (!file) return file.error();
  if (Status s = file->write(header.data(), header.size()); !s) return s;
  if (Status s = file->write(binary.bytes.data(), binary.bytes.size()); !s) return s;
  return file->commit();
}

class GlBinaries : public ProgramBinaries {
 public:
  bool available() const override {
    GLint formats = 0;
    glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
    return formats > 0;
  }
  std::string driverIdentity() const override {
    auto text = [](GLenum name) {
      const GLubyte* s = glGetString(name);
      return s ? std::string(reinterpret_cast<const char*>(s)) : std::string();
    };
    return text(GL_VENDOR) + '\n' + text(GL_RENDERER) + '\n' + text(GL_VERSION);
  }
  std::optional<ProgramBinary> get(GLuint program) const override {
    GLint length = 0;
    glGetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &length);
    if (length <= 0) return std::nullopt;
    ProgramBinary b;
    b.bytes.resize(size_t(length));
    GLsizei written = 0;
    glGetProgramBinary(program, length, &written, &b.format, b.bytes.data());
    if (written <= 0) return std::nullopt;
    b.bytes.resize(size_t(written));
    return b;
  }
  bool put(GLuint program, const ProgramBinary& b) const override {
    glProgramBinary(program, b.format, b.bytes.data(), GLsizei(b.bytes.size()));
    GLint linked = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &linked);
    // A format the driver no longer knows raises GL_INVALID_ENUM: a miss, not a later error.
    // Bounded: a lost context may report an error on every call.
    for (int i = 0; i < 8 && glGetError() != GL_NO_ERROR; ++i) {
    }
    return linked == GL_TRUE;
  }
};

}  // namespace

const ProgramBinaries& glProgramBinaries() {
  static const GlBinaries binaries;
  return binaries;
}

std::string ProgramCache::directoryFromEnvironment() {
  const char* setting = std::getenv("ESFRAME_PROGRAM_CACHE");
  if (setting && std::string_view(setting) == "0") return "";
  if (setting && setting[0] == '/') return setting;  // a folder of its own (tests: the build's)
  return esframeCacheDir() + "/programs";
}

const ProgramCache& ProgramCache::shared() {
  static const ProgramCache cache(directoryFromEnvironment(), glProgramBinaries());
  return cache;
}

ProgramCache::ProgramCache(std::string dir, const ProgramBinaries& binaries)
    : dir_(std::move(dir)), binaries_(&binaries) {}

bool ProgramCache::usable() const {
  return !dir_.empty() && binaries_->available();
}

std::string ProgramCache::pathFor(std::string_view sources) const {
  return entryPath(dir_, keyHash(*binaries_, sources));
}

GlProgram ProgramCache::load(std::string_view sources, std::string* why) const {
  const KeyHash key = keyHash(*binaries_, sources);
  const std::string path = entryPath(dir_, key);
  auto miss = [&](const std::string& reason) {
    *why = path + ": " + reason;
    return GlProgram();
  };
  std::string read_error;
  std::optional<std::vector<uint8_t>> file = readFile(path, &read_error);
  if (!file) return miss(read_error);
  const std::vector<uint8_t>& data = *file;
  if (data.size() < kHeaderSize) return miss("shorter than its header");
  const uint8_t* p = data.data();
  if (std::memcmp(p, kMagic, sizeof kMagic) != 0) return miss("not an esframe program binary");
  p += sizeof kMagic;
  if (std::memcmp(p, key.bytes, sizeof key.bytes) != 0) return miss("written for another key");
  p += sizeof key.bytes;
  uint32_t format = 0, length = 0;
  uint64_t checksum = 0;
  std::memcpy(&format, p, 4);
  std::memcpy(&length, p + 4, 4);
  std::memcpy(&checksum, p + 8, 8);
  if (data.size() - kHeaderSize != length) return miss("length does not match the header");
  const uint8_t* payload = data.data() + kHeaderSize;
  if (XXH64(payload, length, 0) != checksum) return miss("checksum mismatch");
  ProgramBinary binary{GLenum(format), std::vector<uint8_t>(payload, payload + length)};
  GlProgram program(glCreateProgram());
  if (!program || !binaries_->put(program.get(), binary))
    return miss("the driver rejected the binary");
  return program;
}

bool ProgramCache::store(std::string_view sources, GLuint program, std::string* why) const {
  std::optional<ProgramBinary> binary = binaries_->get(program);
  if (!binary) {
    *why = "the driver gave no binary for the program";
    return false;
  }
  if (binary->bytes.size() > kMaxBinary) {
    *why = "the program's binary is too large to cache";
    return false;
  }
  const KeyHash key = keyHash(*binaries_, sources);
  const uint32_t format = binary->format, length = uint32_t(binary->bytes.size());
  const uint64_t checksum = XXH64(binary->bytes.data(), length, 0);
  std::vector<uint8_t> header(kHeaderSize);
  uint8_t* p = header.data();
  std::memcpy(p, kMagic, sizeof kMagic);
  std::memcpy(p + 8, key.bytes, sizeof key.bytes);
  std::memcpy(p + 24, &format, 4);
  std::memcpy(p + 28, &length, 4);
  std::memcpy(p + 32, &checksum, 8);
  Status written = writeEntry(dir_, entryPath(dir_, key), header, *binary);
  if (!written) *why = written.error().message;
  return bool(written);
}

}  // namespace esf
