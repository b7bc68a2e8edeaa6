// Which specs are network URIs, and what a message keeps of their credentials.
#include <gtest/gtest.h>

#include "capture/network_source.hpp"

namespace esf {
namespace {

TEST(NetworkSpec, UrisOfAnySchemeAndNothingElse) {
  EXPECT_TRUE(isNetworkSpec("rtsp://cam:8554/front"));
  EXPECT_TRUE(isNetworkSpec("http://go2rtc:1984/api/stream.y4m?src=a"));
  EXPECT_TRUE(isNetworkSpec("https://x/y"));
  EXPECT_TRUE(isNetworkSpec("rtsps://x/y"));
  EXPECT_TRUE(isNetworkSpec("srt+udp://x:1"));
  EXPECT_FALSE(isNetworkSpec("pattern"));
  EXPECT_FALSE(isNetworkSpec("/dev/video0"));
  EXPECT_FALSE(isNetworkSpec("libcamera:/base/soc/i2c0mux/imx219@10"));
  EXPECT_FALSE(isNetworkSpec("clip.y4m"));
  EXPECT_FALSE(isNetworkSpec("./dir://x"));  // a path: the scheme must be letters first
  EXPECT_FALSE(isNetworkSpec("://x"));
  EXPECT_FALSE(isNetworkSpec("1http://x"));
}

TEST(NetworkSpec, PasswordsNeverSurviveRedaction) {
  EXPECT_EQ(redactSecrets("rtsp://admin:hunter2@10.0.0.5:554/s1"),
            "rtsp://admin:***@10.0.0.5:554/s1");
  EXPECT_EQ(redactSecrets("rtsp://token@cam/s"), "rtsp://***@cam/s");  // user info alone
  EXPECT_EQ(redactSecrets("http://cam/a@b"), "http://cam/a@b");        // '@' in the path
  EXPECT_EQ(redactSecrets("no uri here"), "no uri here");
  // Inside GStreamer's own text, twice, and a password from a file wherever it appears.
  EXPECT_EQ(redactSecrets("Could not connect to http://u:p%40ss@h/x, URL: http://u:p%40ss@h/x",
                          {"p%40ss", "p@ss"}),
            "Could not connect to http://u:***@h/x, URL: http://u:***@h/x");
  EXPECT_EQ(redactSecrets("401 for user u with s3cret", {"s3cret"}), "401 for user u with ***");
  // A password that contains '@' and '/' as typed (not percent-encoded).
  EXPECT_EQ(redactSecrets("rtsp://u:a@b/c@host/x", {"a@b/c"}), "rtsp://u:***@host/x");
}

}  // namespace
}  // namespace esf
