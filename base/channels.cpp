#include "base/channels.hpp"

#include <string>

namespace esf {

Result<LumaWeights> parseLumaWeights(std::string_view name) {
  if (name == "bt709") return LumaWeights::kBt709;
  if (name == "bt601") return LumaWeights::kBt601;
  return fail(ErrorCode::kInvalidArgument, "unknown luma weights '", name, "' (bt709 or bt601)");
}

const char* lumaWeightsName(LumaWeights w) {
  return w == LumaWeights::kBt709 ? "bt709" : "bt601";
}

int channelCode(char letter) {
  switch (letter) {
    case 'r':
      return 0;
    case 'g':
      return 1;
    case 'b':
      return 2;
    case 'l':
      return 3;
    default:
      return -1;
  }
}

Status validateChannels(std::string_view channels) {
  if (channels.empty() || channels.size() > 4)
    return fail(ErrorCode::kInvalidArgument, "channels '", channels,
                "': give 1 to 4 letters of rgbl");
  for (size_t i = 0; i < channels.size(); ++i) {
    if (channelCode(channels[i]) < 0)
      return fail(ErrorCode::kInvalidArgument, "channels '", channels, "': '",
                  std::string(1, channels[i]), "' is not one of r, g, b, l");
    if (channels.find(channels[i]) != i)
      return fail(ErrorCode::kInvalidArgument, "channels '", channels, "': '",
                  std::string(1, channels[i]), "' repeats");
  }
  return {};
}

}  // namespace esf
