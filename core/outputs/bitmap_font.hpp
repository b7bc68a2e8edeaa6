#pragma once
// A 5x7 bitmap font embedded in the binary (no font files at run time), for the graph's text
// strip: digits, A-Z (lower case drawn as upper case) and " .-+%/:=?". Other characters draw '?'.
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace esf {

constexpr int kGlyphWidth = 5;
constexpr int kGlyphHeight = 7;
constexpr int kGlyphAdvance = 6;  // one blank column between glyphs

// Row r (0 = top) of the glyph, bit 4 = leftmost column.
using GlyphRows = std::array<uint8_t, kGlyphHeight>;
const GlyphRows& glyphRows(char c);

// The text as pixel columns, kGlyphAdvance per character: bit r of a column = row r from the
// top is ink. What graph.frag samples from its text texture.
std::vector<uint8_t> textColumns(std::string_view text);

}  // namespace esf
