// `esframe run --output csv`, `csv:bins` and `bin` against `--output jsonl` of the same input:
// every CSV column and every field of every binary record decoded and compared with the JSONL
// line of the same frame (timings excluded: they differ from run to run). The CSV reader
// (RFC 4180) and the binary decoder are written from docs/output-formats.md, not from the
// writers in core/outputs/.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "tests/apps/esframe/run_test_util.hpp"

namespace esf {
namespace {

using test::OrderedJson;

// ---- CSV, RFC 4180: fields split on commas, quoted fields may hold commas, quotes ("") and
// line breaks.
using CsvRecord = std::vector<std::string>;

std::vector<CsvRecord> parseCsv(const std::string& text) {
  std::vector<CsvRecord> records;
  CsvRecord record;
  std::string field;
  bool quoted = false, after_quote = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') {
        field += c;
      } else if (i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else {
        quoted = false;
        after_quote = true;
      }
      continue;
    }
    if (c == '"' && field.empty() && !after_quote) {
      quoted = true;
    } else if (c == ',') {
      record.push_back(field);
      field.clear();
      after_quote = false;
    } else if (c == '\n') {
      record.push_back(field);
      records.push_back(record);
      record.clear();
      field.clear();
      after_quote = false;
    } else {
      EXPECT_FALSE(after_quote) << "text after a closing quote at byte " << i;
      field += c;
    }
  }
  EXPECT_TRUE(field.empty() && record.empty() && !quoted) << "last CSV line not terminated";
  return records;
}

uint64_t parseUint(const std::string& s) {
  size_t used = 0;
  const unsigned long long v = std::stoull(s, &used);
  EXPECT_EQ(used, s.size()) << "'" << s << "' is not an integer";
  return v;
}

double parseDouble(const std::string& s) {
  size_t used = 0;
  const double v = std::stod(s, &used);
  EXPECT_EQ(used, s.size()) << "'" << s << "' is not a number";
  return v;
}

const char* const kStatNames[] = {"min", "max", "mean",     "p1",        "p10", "p50",
                                  "p90", "p99", "clip_low", "clip_high", "msv"};

// The columns docs/output-formats.md lists, for the channels and stages of `frame`.
std::vector<std::string> documentedColumns(const OrderedJson& frame, bool with_bins) {
  std::vector<std::string> cols = {"seq",    "ts_ns",  "source", "width",
                                   "height", "format", "dropped"};
  for (const auto& [channel, stats] : frame["stats"].items())
    for (const char* name : kStatNames) cols.push_back(channel + "_" + name);
  for (const char* name : {"YMIN", "YLOW", "YAVG", "YHIGH", "YMAX", "ev_hint"})
    cols.push_back(name);
  for (const auto& [stage, ms] : frame["timing_ms"].items())
    cols.push_back("timing_" + stage + "_ms");
  if (with_bins) {
    for (const auto& [channel, counts] : frame["hist"].items())
      for (size_t b = 0; b < counts.size(); ++b)
        cols.push_back(channel + "_bin" + std::to_string(b));
  }
  return cols;
}

// One CSV row against the JSONL line of the same frame, column by column.
void expectCsvRowIsJsonl(const std::vector<std::string>& header, const CsvRecord& row,
                         const OrderedJson& j) {
  ASSERT_EQ(row.size(), header.size());
  for (size_t i = 0; i < header.size(); ++i) {
    const std::string& col = header[i];
    const std::string& field = row[i];
    SCOPED_TRACE("column " + col + " = '" + field + "'");
    if (col == "source" || col == "format") {
      EXPECT_EQ(field, j[col].get<std::string>());
    } else if (col == "seq" || col == "ts_ns" || col == "width" || col == "height" ||
               col == "dropped") {
      EXPECT_EQ(parseUint(field), j[col].get<uint64_t>());
    } else if (col.rfind("timing_", 0) == 0) {
      const std::string stage = col.substr(7, col.size() - 7 - 3);
      ASSERT_TRUE(j["timing_ms"].contains(stage));
      EXPECT_GE(parseDouble(field), 0.0);  // the value differs from run to run
    } else if (col[0] == 'Y' || col == "ev_hint") {
      if (j[col].is_null())
        EXPECT_EQ(field, "");
      else
        EXPECT_EQ(parseDouble(field), j[col].get<double>());
    } else if (const size_t bin = col.find("_bin"); bin != std::string::npos) {
      const OrderedJson& counts = j["hist"][col.substr(0, bin)];
      EXPECT_EQ(parseUint(field), counts[parseUint(col.substr(bin + 4))].get<uint64_t>());
    } else {
      const size_t us = col.find('_');
      const OrderedJson& stat = j["stats"][col.substr(0, us)][col.substr(us + 1)];
      ASSERT_FALSE(stat.is_null()) << "no such JSONL stat";
      // Integers print as integers, doubles with 17 significant digits: both read back exact.
      EXPECT_EQ(parseDouble(field), stat.get<double>());
    }
  }
}

void expectCsvIsJsonl(const std::string& csv, const std::vector<OrderedJson>& jsonl,
                      bool with_bins) {
  const std::vector<CsvRecord> records = parseCsv(csv);
  ASSERT_EQ(records.size(), jsonl.size() + 1) << "a header and one row per frame";
  // Every column below is then one the JSONL line has.
  ASSERT_EQ(records[0], documentedColumns(jsonl[0], with_bins));
  for (size_t f = 0; f < jsonl.size(); ++f) {
    SCOPED_TRACE("frame " + std::to_string(f));
    expectCsvRowIsJsonl(records[0], records[f + 1], jsonl[f]);
  }
}

// ---- Binary records: little-endian, decoded byte by byte as the doc's table lays them out.
class Reader {
 public:
  Reader(const std::string& bytes, size_t offset) : bytes_(bytes), pos_(offset) {}
  bool has(size_t n) const { return pos_ + n <= bytes_.size(); }
  uint64_t u(int size) {
    uint64_t v = 0;
    for (int i = 0; i < size; ++i) v |= uint64_t(uint8_t(bytes_.at(pos_ + size_t(i)))) << (8 * i);
    pos_ += size_t(size);
    return v;
  }
  double f64() {
    const uint64_t bits = u(8);
    double v;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  std::string text(size_t size) {
    std::string s = bytes_.substr(pos_, size);
    pos_ += size;
    return s;
  }
  // A zero-padded char[size]: the text before the first 0, and every byte after it must be 0.
  std::string padded(size_t size) {
    const std::string raw = text(size);
    const std::string s = raw.substr(0, raw.find('\0'));
    EXPECT_EQ(raw.find_first_not_of('\0', s.size()), std::string::npos) << "padding not zero";
    return s;
  }
  size_t pos() const { return pos_; }

 private:
  const std::string& bytes_;
  size_t pos_;
};

// The record at `offset` against the JSONL line of the same frame; returns the record size.
size_t expectBinRecordIsJsonl(const std::string& bytes, size_t offset, const OrderedJson& j) {
  Reader r(bytes, offset);
  if (!r.has(64)) {
    ADD_FAILURE() << "record header truncated at " << offset;
    return bytes.size();
  }
  EXPECT_EQ(r.text(4), "ESF1");
  const uint64_t size = r.u(4);
  EXPECT_EQ(r.u(8), j["seq"].get<uint64_t>());
  EXPECT_EQ(r.u(8), j["ts_ns"].get<uint64_t>());
  EXPECT_EQ(r.u(8), j["dropped"].get<uint64_t>());
  EXPECT_EQ(r.u(4), j["width"].get<uint64_t>());
  EXPECT_EQ(r.u(4), j["height"].get<uint64_t>());
  const uint64_t bins = r.u(2), channels = r.u(1), timings = r.u(1);
  EXPECT_EQ(bins, j["bins"].get<uint64_t>());
  EXPECT_EQ(channels, j["hist"].size());
  EXPECT_EQ(timings, j["timing_ms"].size());
  const std::string letters = r.padded(4);
  std::string json_letters;
  for (const auto& [channel, counts] : j["hist"].items()) json_letters += channel;
  EXPECT_EQ(letters, json_letters);
  if (letters != json_letters) return bytes.size();  // the fields below are looked up by letter
  EXPECT_EQ(r.padded(8), j["format"].get<std::string>());
  const uint64_t source_size = r.u(4);
  EXPECT_EQ(r.u(4), 0u) << "reserved word";
  EXPECT_EQ(r.pos() - offset, 64u);
  const uint64_t expected_size =
      64 + source_size + 4 * bins * channels + 80 * channels + 8 + 24 * timings;
  EXPECT_EQ(size, expected_size);
  if (letters.size() != channels || !r.has(expected_size - 64)) {
    ADD_FAILURE() << "record body truncated or inconsistent at " << offset;
    return bytes.size();
  }
  EXPECT_EQ(r.text(source_size), j["source"].get<std::string>());
  std::vector<uint64_t> counts(bins * channels);
  for (uint64_t& c : counts) c = r.u(4);
  for (uint64_t b = 0; b < bins; ++b)
    for (uint64_t c = 0; c < channels; ++c)
      EXPECT_EQ(counts[b * channels + c], j["hist"][std::string(1, letters[c])][b].get<uint64_t>())
          << "bin " << b << " channel " << letters[c];
  for (char letter : letters) {
    const OrderedJson& s = j["stats"][std::string(1, letter)];
    SCOPED_TRACE(std::string("channel ") + letter);
    const uint64_t pixels = r.u(8), sum = r.u(8);
    EXPECT_EQ(pixels, s["pixels"].get<uint64_t>());
    // JSONL has no sum; the doc defines mean as sum / pixels.
    EXPECT_EQ(double(sum) / double(pixels), s["mean"].get<double>());
    for (const char* name : {"min", "max", "p1", "p10", "p50", "p90", "p99"})
      EXPECT_EQ(r.u(4), s[name].get<uint64_t>()) << name;
    EXPECT_EQ(r.u(4), 0u) << "padding word";
    for (const char* name : {"mean", "clip_low", "clip_high", "msv"})
      EXPECT_EQ(r.f64(), s[name].get<double>()) << name;
  }
  const double ev = r.f64();
  if (j["ev_hint"].is_null())
    EXPECT_TRUE(std::isnan(ev)) << ev;
  else
    EXPECT_EQ(ev, j["ev_hint"].get<double>());
  for (const auto& [stage, ms] : j["timing_ms"].items()) {
    EXPECT_EQ(r.padded(15), stage);
    EXPECT_EQ(r.u(1), j["timing_clock"][stage] == "gpu" ? 1u : 0u) << stage;
    const double got_ms = r.f64();
    EXPECT_TRUE(std::isfinite(got_ms) && got_ms >= 0) << stage << " " << got_ms;
  }
  EXPECT_EQ(r.pos() - offset, size);
  return size_t(size);
}

void expectBinIsJsonl(const std::string& bytes, const std::vector<OrderedJson>& jsonl) {
  size_t offset = 0;
  for (size_t f = 0; f < jsonl.size(); ++f) {
    SCOPED_TRACE("record " + std::to_string(f));
    ASSERT_LT(offset, bytes.size()) << "fewer records than JSONL lines";
    offset += expectBinRecordIsJsonl(bytes, offset, jsonl[f]);
  }
  EXPECT_EQ(offset, bytes.size()) << "bytes after the last record";
}

// Runs `args` once per stdout format and checks csv, csv:bins and bin against the JSONL run.
void expectFormatsAgree(const std::vector<std::string>& args, size_t frames) {
  auto with = [&](const std::string& output) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--output", output});
    return test::runOk(a);
  };
  const std::vector<OrderedJson> jsonl = test::parseJsonLines(with("jsonl"));
  ASSERT_EQ(jsonl.size(), frames);
  {
    SCOPED_TRACE("csv");
    expectCsvIsJsonl(with("csv"), jsonl, false);
  }
  {
    SCOPED_TRACE("csv:bins");
    expectCsvIsJsonl(with("csv:bins"), jsonl, true);
  }
  {
    SCOPED_TRACE("bin");
    expectBinIsJsonl(with("bin"), jsonl);
  }
}

TEST(RunFormats, CsvAndBinEqualJsonlOnThePattern) {
  expectFormatsAgree({"run", "--frames", "3", "--size", "37x23", "--histogram", "bins=16"}, 3);
}

TEST(RunFormats, CsvAndBinEqualJsonlWithoutLumaAndOnTheReferenceBackend) {
  // No L channel: empty Y* and ev_hint columns, a NaN ev_hint record; channels in the user's
  // order, not rgbl order.
  expectFormatsAgree({"run", "--frames", "2", "--size", "20x11", "--histogram",
                      "bins=7,channels=bg", "--backend", "reference", "--blur", "3:1"},
                     2);
}

TEST(RunFormats, CsvAndBinEqualJsonlOnAStillImageWithAQuotedName) {
  test::ScratchDir dir;
  // A '"' in the file name: CSV must quote the source field and double the quote.
  const std::string path = (dir.path / "still \"1\".ppm").string();
  test::writePpm(path, 29, 13, [](int x, int y) {
    return test::Rgb{uint8_t(x * 9), uint8_t(y * 19), uint8_t((x * y) % 256)};
  });
  expectFormatsAgree({"run", "--source", path, "--histogram", "bins=256,channels=lrg"}, 1);
}

}  // namespace
}  // namespace esf
