#pragma once
// A disk cache of linked GL programs (GLES 3.0's glGetProgramBinary / glProgramBinary, the
// technique Chromium, Qt and Godot use), so a run loads what an earlier run compiled.
//
// One file per program under <cache dir>/programs/ (base/cache_dir.hpp), named by a 128-bit
// hash of its key: the program's full sources with their preambles, GL_VENDOR, GL_RENDERER,
// GL_VERSION (which carries the driver version) and esframe's version. A file is a header and
// the driver's binary, written atomically (temporary file + rename):
//   "ESFPROG1" | key hash (16 bytes) | binary format (u32) | length (u32) | XXH64 of binary
// A missing, short, corrupt or other-key file, or a binary the driver rejects, is a miss: the
// caller compiles and stores the program again. Nothing here fails a run: a folder that cannot
// be written costs the compile time only (logged at debug level). ESFRAME_PROGRAM_CACHE=0 turns
// the cache off; ESFRAME_PROGRAM_CACHE=/absolute/folder puts it there instead. Drivers that offer
// no binary format (GL_NUM_PROGRAM_BINARY_FORMATS 0: Mesa with its shader cache disabled) skip it.
#include <GLES3/gl31.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/gl_objects.hpp"

namespace esf {

struct ProgramBinary {
  GLenum format = 0;
  std::vector<uint8_t> bytes;
};

// Where binaries come from and go to: the current GL context, or a test's stand-in.
class ProgramBinaries {
 public:
  virtual ~ProgramBinaries() = default;
  virtual bool available() const = 0;  // the driver offers a binary format
  // GL_VENDOR, GL_RENDERER and GL_VERSION: the key's driver half.
  virtual std::string driverIdentity() const = 0;
  virtual std::optional<ProgramBinary> get(GLuint program) const = 0;
  // Loads `binary` into `program`; true when the driver accepted it (GL_LINK_STATUS).
  virtual bool put(GLuint program, const ProgramBinary& binary) const = 0;
};

// The current context's glGetProgramBinary / glProgramBinary.
const ProgramBinaries& glProgramBinaries();

class ProgramCache {
 public:
  // The process's cache: <esframeCacheDir()>/programs with the current context's binaries; off
  // when the environment says ESFRAME_PROGRAM_CACHE=0, in FOLDER when it says =/FOLDER (read
  // once, at first use).
  static const ProgramCache& shared();
  // The folder shared() uses for this environment; empty when the cache is off.
  static std::string directoryFromEnvironment();

  // An empty `dir` is a cache that is off.
  ProgramCache(std::string dir, const ProgramBinaries& binaries);

  // On, and the driver offers a binary format.
  bool usable() const;
  const std::string& directory() const { return dir_; }
  // The file that holds the program linked from `sources` on this driver.
  std::string pathFor(std::string_view sources) const;
  // The program of an earlier store() of `sources`, or an empty GlProgram on a miss (whose
  // reason goes to *why, for the debug log).
  GlProgram load(std::string_view sources, std::string* why) const;
  // Saves `program`'s binary under `sources`; false with *why when it could not.
  bool store(std::string_view sources, GLuint program, std::string* why) const;

 private:
  std::string dir_;
  const ProgramBinaries* binaries_;
};

}  // namespace esf
