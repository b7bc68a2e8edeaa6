// base/text_parse: every expectation below is written out by hand from the grammar in
// text_parse.hpp, never computed by the parser itself.
#include "esframe/text_parse.hpp"

#include <gtest/gtest.h>

namespace esf {
namespace {

TEST(ParseSize, AcceptsWxH) {
  EXPECT_EQ(parseSize("640x480", "size").value(), (ParsedSize{640, 480}));
  EXPECT_EQ(parseSize("1X1", "size").value(), (ParsedSize{1, 1}));
  EXPECT_EQ(parseSize("16384x2", "size").value(), (ParsedSize{16384, 2}));
  EXPECT_EQ(parseSize("512x256", "graph", 4096).value(), (ParsedSize{512, 256}));
}

TEST(ParseSize, RejectsBadInput) {
  for (const char* bad :
       {"", "x", "640", "640x", "x480", "0x480", "640x0", "-1x4", "+1x4", "640x480x2", "640 x480",
        "640x480 ", "12y4", "65537x1", "axb", "99999999999999999999x1"})
    EXPECT_FALSE(parseSize(bad, "size").ok()) << "'" << bad << "'";
  EXPECT_FALSE(parseSize("5000x10", "graph", 4096).ok());
}

TEST(ParseSize, ErrorNamesTheThingNotAFlag) {
  Result<ParsedSize> r = parseSize("12y4", "size");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message.rfind("size '12y4': expected WxH", 0), 0u) << r.error().message;
  EXPECT_EQ(r.error().message.find("--"), std::string::npos) << r.error().message;
}

TEST(ParseUnsigned, Bounds) {
  EXPECT_EQ(parseUnsigned("0", "n", 0, 10).value(), 0u);
  EXPECT_EQ(parseUnsigned("10", "n", 0, 10).value(), 10u);
  EXPECT_EQ(parseUnsigned("4294967295", "plane", 1, 0xffffffffu).value(), 4294967295u);
  for (const char* bad : {"", "11", "-1", "+1", " 1", "1 ", "1.0", "0x1", "a"})
    EXPECT_FALSE(parseUnsigned(bad, "n", 0, 10).ok()) << "'" << bad << "'";
  EXPECT_FALSE(parseUnsigned("0", "n", 1, 10).ok());
  EXPECT_FALSE(parseUnsigned("18446744073709551616", "n", 0, UINT64_MAX).ok());
  EXPECT_EQ(parseUnsigned("7", "every", 1, 5).error().message,
            "every '7': expected an integer in 1..5");
}

TEST(ParseKeyValue, NameAndValue) {
  EXPECT_EQ(parseKeyValue("gain=10", "control").value(), (KeyValue{"gain", "10"}));
  EXPECT_EQ(parseKeyValue("a==b", "control").value(), (KeyValue{"a", "=b"}));
  for (const char* bad : {"", "gain", "=1", "gain=", "="})
    EXPECT_FALSE(parseKeyValue(bad, "control").ok()) << "'" << bad << "'";
  EXPECT_EQ(parseKeyValue("gain", "control").error().message,
            "control 'gain': expected NAME=VALUE");
}

TEST(ParseKeyValueList, OrderedPairs) {
  EXPECT_TRUE(parseKeyValueList("", "opts").value().empty());
  std::vector<KeyValue> want = {{"b", "2"}, {"a", "1"}, {"path", "/x=y"}};
  EXPECT_EQ(parseKeyValueList("b=2,a=1,path=/x=y", "opts").value(), want);
}

TEST(ParseKeyValueList, RejectsBadLists) {
  for (const char* bad : {",", "a=1,", ",a=1", "a=1,,b=2", "a", "a=1,b", "=1", "a=", "a=1,a=2"})
    EXPECT_FALSE(parseKeyValueList(bad, "opts").ok()) << "'" << bad << "'";
  EXPECT_EQ(parseKeyValueList("a=1,a=2", "opts").error().message, "opts: a= given twice");
  EXPECT_EQ(parseKeyValueList("a=1,,b=2", "opts").error().message,
            "opts: empty item in 'a=1,,b=2'");
}

TEST(ParseKeyValueList, KnownKeysOnly) {
  KeyValueListRules rules{{"every", "graph"}, {}};
  EXPECT_EQ(parseKeyValueList("graph=2x2,every=3", "PNG output", rules).value(),
            (std::vector<KeyValue>{{"graph", "2x2"}, {"every", "3"}}));
  Result<std::vector<KeyValue>> r = parseKeyValueList("evry=3", "PNG output", rules);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "PNG output: unknown key 'evry' (keys: every, graph)");
}

TEST(ParseKeyValueList, CommaValuedKeyTakesTheFollowingPlainItems) {
  KeyValueListRules rules{{}, {"rect"}};
  EXPECT_EQ(parseKeyValueList("zpos=1,rect=0,0,20,10,alpha=5", "DRM output", rules).value(),
            (std::vector<KeyValue>{{"zpos", "1"}, {"rect", "0,0,20,10"}, {"alpha", "5"}}));
  // A plain item after an ordinary key is still an error.
  EXPECT_FALSE(parseKeyValueList("zpos=1,2", "DRM output", rules).ok());
  EXPECT_FALSE(parseKeyValueList("rect=1,,2", "DRM output", rules).ok());
}

}  // namespace
}  // namespace esf
