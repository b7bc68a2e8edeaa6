#pragma once
// Reading what ffmpeg prints, for the tests that take ffmpeg's filters as the oracle: the
// frames of metadata=mode=print and a number in a filter's printf format.
#include <cstdio>
#include <map>
#include <sstream>
#include <string>

namespace esf::test {

// A number as ffmpeg's filter prints it, with the filter's printf format ("%g", "%0.3f").
inline std::string printfNumber(const char* format, double v) {
  char text[64];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

// metadata=mode=print output: "frame:N pts:P pts_time:T" then key=value lines.
inline std::map<int, std::map<std::string, std::string>> parseMetadata(const std::string& text) {
  std::map<int, std::map<std::string, std::string>> frames;
  std::istringstream in(text);
  std::string line;
  int frame = -1;
  while (std::getline(in, line)) {
    if (line.rfind("frame:", 0) == 0) {
      frame = std::stoi(line.substr(6));
    } else if (const size_t eq = line.find('='); eq != std::string::npos && frame >= 0) {
      frames[frame][line.substr(0, eq)] = line.substr(eq + 1);
    }
  }
  return frames;
}

}  // namespace esf::test
