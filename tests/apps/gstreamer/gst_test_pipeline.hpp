#pragma once
// What the esframehistogram tests share: a launch line run to its end with the buffers seen
// before and after the element, and the "esframe" messages it posted.
//   videotestsrc ! caps ! identity name=before ! esframehistogram ! fakesink name=after
// The identity's buffers are counted here through GStreamer's own description of the format, not
// esframe's.
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace esf::test {

using ValueCounts = std::array<uint64_t, 256>;  // occurrences of each 8-bit value

struct Reference {
  std::map<char, ValueCounts> channels;  // 'r', 'g', 'b', 'l'
  std::vector<uint8_t> bytes;            // the buffer as it went in
};

struct Observed {
  std::mutex mutex;
  std::map<GstClockTime, Reference> before;
  std::map<GstClockTime, std::vector<uint8_t>> after;
};

struct RunOutcome {
  std::vector<GstStructure*> messages;  // "esframe" structures, owned
  std::string error;                    // the first ERROR message's text
  ~RunOutcome() {
    for (GstStructure* s : messages) gst_structure_free(s);
  }
};

std::vector<uint8_t> bufferBytes(GstBuffer* buffer);

// Counts from GStreamer's component layout: RGB formats give r, g, b and l (integer BT.709,
// docs/output-formats.md); YUV formats give l from the Y component (luma-source=source).
Reference countValues(GstBuffer* buffer, GstPad* pad);

// The counts of `channel` in a message's "hist" structure.
std::vector<uint64_t> countsOf(const GstStructure* hist, char channel);

// Runs the launch line to EOS or ERROR, hooking the identity "before" and the fakesink "after".
// dmabuf: each buffer leaving "before" is replaced with a copy in dmabuf-type memory.
void runPipeline(const std::string& launch, Observed& observed, RunOutcome& outcome,
                 bool dmabuf = false);

// runPipeline, which must end without an error and post `messages` "esframe" messages (call it
// under ASSERT_NO_FATAL_FAILURE).
void runToEnd(const std::string& launch, size_t messages, Observed& observed, RunOutcome& outcome,
              bool dmabuf = false);

class EsframeElement : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { gst_init(nullptr, nullptr); }
};

}  // namespace esf::test
