// The program binary cache (platform/program_cache.hpp) through ShaderLibrary, on the real
// driver: a loaded program must compute what a compiled one does (against the shader's formula,
// worked out here), and every damaged entry must fall back to a compile and be rewritten.
// Mesa offers program binaries only with its shader cache on (the test context keeps it in the
// build tree); a driver without a binary format skips the tests that need one.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "esframe/base/log.hpp"
#include "glsl_es/embedded_file.hpp"
#include "platform/program_cache.hpp"
#include "platform/shader_library.hpp"
#include "tests/support/gl_test_context.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace esf {
extern const EmbeddedFile esf_test_shaders[];
extern const std::size_t esf_test_shaders_count;

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<char>;

// Debug lines while alive: which programs were compiled and which loaded.
class LogCapture {
 public:
  LogCapture() : level_(logLevel()) {
    setLogLevel(LogLevel::kDebug);
    setLogHandler([](LogLevel, std::string_view m,
                     void* self) { static_cast<LogCapture*>(self)->lines_.emplace_back(m); },
                  this);
  }
  ~LogCapture() {
    setLogHandler(nullptr);
    setLogLevel(level_);
  }
  int count(std::string_view text) const {
    int n = 0;
    for (const std::string& l : lines_) n += l.find(text) != std::string::npos;
    return n;
  }
  std::string all() const {
    std::string s;
    for (const std::string& l : lines_) s += l + "\n";
    return s;
  }

 private:
  LogLevel level_;
  std::vector<std::string> lines_;
};

Bytes readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}
void writeAll(const fs::path& p, const Bytes& b) {
  std::ofstream(p, std::ios::binary | std::ios::trunc).write(b.data(), std::streamsize(b.size()));
}

// write_pattern.comp writes word i = i * MULTIPLIER + OFFSET for i < u_count.
std::vector<uint32_t> runPattern(const GlProgram& program, GLuint count) {
  GlBuffer buffer = makeBuffer();
  std::vector<uint32_t> poison(count + 8, test::kPoison);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer.get());
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(poison.size() * 4), poison.data(),
               GL_DYNAMIC_COPY);
  glUseProgram(program.get());
  glUniform1ui(glGetUniformLocation(program.get(), "u_count"), count);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer.get());
  glDispatchCompute((count + 63) / 64, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  EXPECT_TRUE(checkGl("dispatch").ok());
  return test::readBuffer(buffer.get(), poison.size());
}

void expectPattern(const std::vector<uint32_t>& got, GLuint count, uint32_t mul, uint32_t add) {
  for (uint32_t i = 0; i < count; ++i) ASSERT_EQ(got[i], i * mul + add) << "word " << i;
  for (size_t i = count; i < got.size(); ++i) ASSERT_EQ(got[i], test::kPoison) << "word " << i;
}

// The driver's binaries under another driver identity (a driver update).
class RenamedDriver : public ProgramBinaries {
 public:
  explicit RenamedDriver(bool available) : available_(available) {}
  bool available() const override { return available_ && glProgramBinaries().available(); }
  std::string driverIdentity() const override { return "Other\nGPU\nGLES 3.1 v2"; }
  std::optional<ProgramBinary> get(GLuint p) const override { return glProgramBinaries().get(p); }
  bool put(GLuint p, const ProgramBinary& b) const override {
    return glProgramBinaries().put(p, b);
  }

 private:
  bool available_;
};

class ProgramCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::glContext();
    char tmpl[] = "/tmp/esframe-program-cache-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    dir_ = root_ / "programs";
  }
  void TearDown() override { fs::remove_all(root_); }
  void requireBinaries() {
    if (!glProgramBinaries().available())
      GTEST_SKIP() << "the driver offers no program binary format (GL_NUM_PROGRAM_BINARY_FORMATS "
                      "0): the cache is off there";
  }
  Result<GlProgram> build(const ProgramCache& cache, int mul, int add) {
    ShaderLibrary library({esf_test_shaders, esf_test_shaders_count}, &cache);
    return library.compute("write_pattern.comp",
                           ShaderDefines().set("MULTIPLIER", mul).set("OFFSET", add));
  }
  std::vector<fs::path> entries() const {
    std::vector<fs::path> files;
    if (fs::is_directory(dir_))
      for (const auto& e : fs::directory_iterator(dir_)) files.push_back(e.path());
    return files;
  }
  fs::path root_, dir_;
};

TEST_F(ProgramCacheTest, LoadedProgramComputesWhatACompiledOneDoes) {
  requireBinaries();
  const ProgramCache cache(dir_.string(), glProgramBinaries());
  ASSERT_TRUE(cache.usable());
  constexpr GLuint kCount = 257;
  LogCapture log;
  Result<GlProgram> compiled = build(cache, 3, 7);
  ASSERT_TRUE(compiled.ok()) << compiled.error().message;
  EXPECT_EQ(log.count("compiled and linked"), 1) << log.all();
  EXPECT_EQ(log.count("stored in the program cache"), 1) << log.all();
  ASSERT_EQ(entries().size(), 1u);
  Result<GlProgram> loaded = build(cache, 3, 7);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(log.count("loaded from the program cache"), 1) << log.all();
  EXPECT_EQ(log.count("compiled and linked"), 1) << "no second compile:\n" << log.all();
  expectPattern(runPattern(compiled.value(), kCount), kCount, 3, 7);
  expectPattern(runPattern(loaded.value(), kCount), kCount, 3, 7);
}

TEST_F(ProgramCacheTest, DamagedEntriesFallBackToACompileAndAreRewritten) {
  requireBinaries();
  const ProgramCache cache(dir_.string(), glProgramBinaries());
  ASSERT_TRUE(build(cache, 5, 1).ok());  // another program's entry, for "another key"
  ASSERT_EQ(entries().size(), 1u);
  const Bytes other = readAll(entries()[0]);
  fs::remove(entries()[0]);
  ASSERT_TRUE(build(cache, 3, 7).ok());
  ASSERT_EQ(entries().size(), 1u);
  const fs::path entry = entries()[0];
  const Bytes good = readAll(entry);
  constexpr size_t kHeader = 40;
  ASSERT_GT(good.size(), kHeader);

  // A binary whose header and checksum are right but which no driver accepts.
  Bytes rejected = good;
  for (size_t i = kHeader; i < rejected.size(); ++i) rejected[i] = char(i * 131 + 17);
  const uint64_t sum = XXH64(rejected.data() + kHeader, rejected.size() - kHeader, 0);
  std::memcpy(rejected.data() + 32, &sum, 8);
  Bytes flipped = good;
  flipped[good.size() / 2 + kHeader / 2] ^= 0x40;
  Bytes bad_magic = good;
  bad_magic[0] = 'X';
  const struct {
    const char* name;
    Bytes bytes;
    const char* reason;
  } damages[] = {
      {"empty", Bytes(), "shorter than its header"},
      {"half a header", Bytes(good.begin(), good.begin() + kHeader / 2), "shorter than its header"},
      {"truncated binary", Bytes(good.begin(), good.end() - 1), "length does not match"},
      {"flipped byte", flipped, "checksum mismatch"},
      {"not ours", bad_magic, "not an esframe program binary"},
      {"another program's entry", other, "written for another key"},
      {"rejected by the driver", rejected, "the driver rejected the binary"},
  };
  for (const auto& d : damages) {
    SCOPED_TRACE(d.name);
    writeAll(entry, d.bytes);
    LogCapture log;
    Result<GlProgram> p = build(cache, 3, 7);
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(log.count(d.reason), 1) << log.all();
    EXPECT_EQ(log.count("compiled and linked"), 1) << log.all();
    expectPattern(runPattern(p.value(), 100), 100, 3, 7);
    // Rewritten: the next build loads it.
    EXPECT_NE(readAll(entry), d.bytes);
    ASSERT_TRUE(build(cache, 3, 7).ok());
    EXPECT_EQ(log.count("loaded from the program cache"), 1) << log.all();
  }
  EXPECT_EQ(entries().size(), 1u) << "no temporary file left behind";
}

TEST_F(ProgramCacheTest, DifferentDefinesAndDriversGiveDifferentEntries) {
  requireBinaries();
  const ProgramCache cache(dir_.string(), glProgramBinaries());
  ASSERT_TRUE(build(cache, 3, 7).ok());
  ASSERT_TRUE(build(cache, 5, 1).ok());
  EXPECT_EQ(entries().size(), 2u);
  LogCapture log;
  Result<GlProgram> a = build(cache, 3, 7), b = build(cache, 5, 1);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(log.count("loaded from the program cache"), 2) << log.all();
  expectPattern(runPattern(a.value(), 65), 65, 3, 7);
  expectPattern(runPattern(b.value(), 65), 65, 5, 1);
  // Another driver's identity is another key: a compile, a third entry.
  const RenamedDriver renamed(true);
  const ProgramCache updated(dir_.string(), renamed);
  EXPECT_NE(updated.pathFor("same sources"), cache.pathFor("same sources"));
  ASSERT_TRUE(build(updated, 3, 7).ok());
  EXPECT_EQ(log.count("compiled and linked"), 1) << log.all();
  EXPECT_EQ(entries().size(), 3u);
}

TEST_F(ProgramCacheTest, UnwritableFolderIsNotAnError) {
  requireBinaries();
  writeAll(root_ / "file", Bytes{'x'});  // a folder under a file can never be made
  const ProgramCache cache((root_ / "file" / "programs").string(), glProgramBinaries());
  for (int run = 0; run < 2; ++run) {
    LogCapture log;
    Result<GlProgram> p = build(cache, 3, 7);
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(log.count("compiled and linked"), 1) << log.all();
    EXPECT_EQ(log.count("not stored (cannot create directory"), 1) << log.all();
    expectPattern(runPattern(p.value(), 64), 64, 3, 7);
  }
}

TEST_F(ProgramCacheTest, OffWhenDisabledOrWithoutABinaryFormat) {
  const char* saved_switch = std::getenv("ESFRAME_PROGRAM_CACHE");
  const std::string saved = saved_switch ? saved_switch : "";
  const char* saved_xdg_env = std::getenv("XDG_CACHE_HOME");
  const std::string saved_xdg = saved_xdg_env ? saved_xdg_env : "";
  setenv("XDG_CACHE_HOME", root_.c_str(), 1);
  setenv("ESFRAME_PROGRAM_CACHE", "0", 1);
  EXPECT_EQ(ProgramCache::directoryFromEnvironment(), "");
  const std::string on = (root_ / "esframe" / "programs").string();
  setenv("ESFRAME_PROGRAM_CACHE", "1", 1);
  EXPECT_EQ(ProgramCache::directoryFromEnvironment(), on);
  unsetenv("ESFRAME_PROGRAM_CACHE");
  EXPECT_EQ(ProgramCache::directoryFromEnvironment(), on);
  setenv("ESFRAME_PROGRAM_CACHE", "/var/cache/esframe-programs", 1);
  EXPECT_EQ(ProgramCache::directoryFromEnvironment(), "/var/cache/esframe-programs");
  setenv("ESFRAME_PROGRAM_CACHE", "relative/is/not/a/folder", 1);
  EXPECT_EQ(ProgramCache::directoryFromEnvironment(), on);
  saved_switch ? setenv("ESFRAME_PROGRAM_CACHE", saved.c_str(), 1)
               : unsetenv("ESFRAME_PROGRAM_CACHE");
  saved_xdg_env ? setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1) : unsetenv("XDG_CACHE_HOME");

  const ProgramCache off("", glProgramBinaries());
  const RenamedDriver no_format(false);
  const ProgramCache formatless(dir_.string(), no_format);
  for (const ProgramCache* cache : {&off, &formatless}) {
    EXPECT_FALSE(cache->usable());
    LogCapture log;
    for (int run = 0; run < 2; ++run) {
      Result<GlProgram> p = build(*cache, 3, 7);
      ASSERT_TRUE(p.ok()) << p.error().message;
      expectPattern(runPattern(p.value(), 64), 64, 3, 7);
    }
    EXPECT_EQ(log.count("compiled and linked"), 2) << log.all();
    EXPECT_EQ(log.count("the program cache"), 0) << log.all();
  }
  EXPECT_FALSE(fs::exists(dir_)) << "an off cache writes nothing";
}

}  // namespace
}  // namespace esf
