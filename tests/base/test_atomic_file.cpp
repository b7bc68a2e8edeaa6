// AtomicFile: whole files or none, no symlink followed, existing files refused unless replaced,
// and a full filesystem (a 64 KiB tmpfs, where mount is allowed) leaves nothing behind.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "base/atomic_file.hpp"
#include "tests/support/temp_path.hpp"

namespace esf {
namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> names(const fs::path& dir) {
  std::vector<std::string> n;
  for (const auto& e : fs::directory_iterator(dir)) n.push_back(e.path().filename());
  std::sort(n.begin(), n.end());
  return n;
}

Status writeWhole(const std::string& path, const std::string& bytes, ExistingFile existing) {
  Result<AtomicFile> f = AtomicFile::create(path, existing);
  if (!f) return f.error();
  if (Status s = f->write(bytes.data(), bytes.size()); !s) return s;
  return f->commit();
}

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::freshTempPath("esframe-atomic", /*per_test=*/true);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    ::umount(dir_.c_str());
    fs::remove_all(dir_);
  }
  fs::path dir_;
};

TEST_F(AtomicFileTest, WritesTheWholeFileUnderItsNameOnly) {
  const std::string path = dir_ / "frame-1.png";
  std::mt19937 rng(17);
  std::string bytes(100003, '\0');
  for (char& c : bytes) c = char(rng());
  ASSERT_TRUE(writeWhole(path, bytes, ExistingFile::kRefuse).ok());
  EXPECT_EQ(readAll(path), bytes);
  EXPECT_EQ(names(dir_), std::vector<std::string>{"frame-1.png"});  // no temporary left
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::others_read, fs::perms::others_read);
}

TEST_F(AtomicFileTest, UncommittedFileLeavesNothing) {
  {
    Result<AtomicFile> f = AtomicFile::create(dir_ / "half.raw", ExistingFile::kRefuse);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(f->write("abc", 3).ok());
  }
  EXPECT_TRUE(names(dir_).empty());
}

TEST_F(AtomicFileTest, ExistingFileIsRefusedUnlessReplaceIsAsked) {
  const std::string path = dir_ / "a.raw";
  ASSERT_TRUE(writeWhole(path, "first", ExistingFile::kRefuse).ok());
  Status again = writeWhole(path, "second", ExistingFile::kRefuse);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message,
            "cannot write " + path + ": a file of that name exists (not replaced)");
  EXPECT_EQ(readAll(path), "first");
  EXPECT_EQ(names(dir_), std::vector<std::string>{"a.raw"});
  ASSERT_TRUE(writeWhole(path, "second", ExistingFile::kReplace).ok());
  EXPECT_EQ(readAll(path), "second");
}

TEST_F(AtomicFileTest, PlantedSymlinkIsNeverFollowed) {
  const fs::path victim = dir_ / "victim";
  std::ofstream(victim) << "precious";
  const std::string path = dir_ / "frame-7.png";
  fs::create_symlink(victim, path);
  EXPECT_FALSE(writeWhole(path, "evil", ExistingFile::kRefuse).ok());
  EXPECT_EQ(readAll(victim), "precious");
  EXPECT_TRUE(fs::is_symlink(path));
  // Replacing replaces the link itself, not what it points to.
  ASSERT_TRUE(writeWhole(path, "frame", ExistingFile::kReplace).ok());
  EXPECT_EQ(readAll(victim), "precious");
  EXPECT_FALSE(fs::is_symlink(path));
  EXPECT_EQ(readAll(path), "frame");
}

TEST_F(AtomicFileTest, FullFilesystemFailsCleanlyAndLeavesNoPartialFile) {
  if (::mount("tmpfs", dir_.c_str(), "tmpfs", 0, "size=64k") != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
  const std::string path = dir_ / "big.raw";
  const std::string bytes(256 * 1024, 'x');
  Status s = writeWhole(path, bytes, ExistingFile::kRefuse);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kIo);
  EXPECT_EQ(s.error().message, "cannot write " + path + ": No space left on device");
  EXPECT_TRUE(names(dir_).empty());  // neither the file nor its temporary
  ASSERT_TRUE(writeWhole(path, "small", ExistingFile::kRefuse).ok());  // space came back
}

}  // namespace
}  // namespace esf
