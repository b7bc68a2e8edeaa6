// PipelineConfig::validate (include/esframe/pipeline_config.hpp): the ranges of every setting,
// in the layer that declares it, so that any layer may check a configuration it is handed.
#include <climits>
#include <string>
#include <vector>

#include "base/api_guard.hpp"
#include "base/channels.hpp"
#include "esframe/base/sizes.hpp"
#include "esframe/pipeline_config.hpp"
#include "esframe/settings.hpp"

namespace esf {
namespace {

// The settings' ranges (esframe/settings.hpp), then what a range cannot say.
Status validateHealth(const HealthConfig& h) {
  if (Status s = checkSettings("health", healthSettings(), h); !s) return s;
  if ((h.grid_columns == 0) != (h.grid_rows == 0))
    return fail(ErrorCode::kInvalidArgument, "health grid ", std::to_string(h.grid_columns), "x",
                std::to_string(h.grid_rows), " must have both sides or neither");
  if (h.rois.size() > kMaxHealthRois)
    return fail(ErrorCode::kInvalidArgument, "health rois: at most ",
                std::to_string(kMaxHealthRois), ", got ", std::to_string(h.rois.size()));
  for (const HealthRegion& r : h.rois) {
    if (r.x < 0 || r.y < 0 || r.width < 1 || r.height < 1)
      return fail(ErrorCode::kInvalidArgument, "health roi ", std::to_string(r.x), ",",
                  std::to_string(r.y), ",", std::to_string(r.width), ",", std::to_string(r.height),
                  ": needs x, y >= 0 and a positive size");
  }
  return Status::success();
}

// ffmpeg's ranges of the detectors' options (esframe/detectors.hpp).
Status checkRange(const char* field, double value, double min, double max) {
  if (value >= min && value <= max) return Status::success();
  return fail(ErrorCode::kInvalidArgument, "detect ", field, " must be in [", std::to_string(min),
              ", ", std::to_string(max), "], got ", std::to_string(value));
}
Status validateDetect(const DetectConfig& d) {
  struct Field {
    const char* name;
    double value, min, max;
  };
  std::vector<Field> fields;
  if (d.crop)
    fields.insert(fields.end(), {{"crop limit", d.crop->limit, 0, 65535},
                                 {"crop round", double(d.crop->round), 0, INT_MAX},
                                 {"crop reset", double(d.crop->reset), 0, INT_MAX},
                                 {"crop skip", double(d.crop->skip), 0, INT_MAX},
                                 {"crop max_outliers", double(d.crop->max_outliers), 0, INT_MAX}});
  if (d.blur)
    fields.insert(fields.end(), {{"blur high", d.blur->high, 0, 1},
                                 {"blur low", d.blur->low, 0, 1},
                                 {"blur radius", double(d.blur->radius), 1, 100},
                                 {"blur block_pct", double(d.blur->block_pct), 1, 100},
                                 {"blur block_width", double(d.blur->block_width), -1, INT_MAX},
                                 {"blur block_height", double(d.blur->block_height), -1, INT_MAX},
                                 {"blur planes", double(d.blur->planes), 0, 15}});
  if (d.block)
    fields.insert(fields.end(), {{"block period_min", double(d.block->period_min), 2, 32},
                                 {"block period_max", double(d.block->period_max), 2, 64},
                                 {"block planes", double(d.block->planes), 0, 15}});
  for (const Field& f : fields)
    if (Status s = checkRange(f.name, f.value, f.min, f.max); !s) return s;
  return Status::success();
}

}  // namespace

Status PipelineConfig::validate() const {
  return guard("pipeline configuration", [&]() -> Status {
    if (histogram.bins < 1 || histogram.bins > 256)
      return fail(ErrorCode::kInvalidArgument, "histogram bins must be in [1, 256], got ",
                  std::to_string(histogram.bins));
    if (Status s = validateChannels(histogram.channels); !s)
      return recode(s.error(), ErrorCode::kInvalidArgument);
    if (blur) {
      if (blur->taps < 1 || blur->taps % 2 == 0)
        return fail(ErrorCode::kInvalidArgument, "blur taps must be odd and positive, got ",
                    std::to_string(blur->taps),
                    " (an even filter shifts the picture by half a pixel per pass)");
      if (blur->iterations < 1 || blur->iterations > 100)
        return fail(ErrorCode::kInvalidArgument, "blur iterations must be in [1, 100], got ",
                    std::to_string(blur->iterations));
    }
    if (threads < 0 || threads > 256)
      return fail(ErrorCode::kInvalidArgument,
                  "threads must be in [0, 256] (0: one per core), got ", std::to_string(threads));
    if (resize)
      if (Status s = checkFrameSize("resize target", resize->width, resize->height); !s) return s;
    if (Status s = validateDetect(detect); !s) return s;
    if (Status s = checkSettings("raw", rawSettings(), raw); !s) return s;
    if (raw.white != 0 && raw.white <= raw.black)
      return fail(ErrorCode::kInvalidArgument, "raw white level ", std::to_string(raw.white),
                  " must be above the black level ", std::to_string(raw.black));
    if (scopes.columns < 0 || scopes.columns > kScopeMaxColumns)
      return fail(ErrorCode::kInvalidArgument, "scopes columns must be in [0, ",
                  std::to_string(kScopeMaxColumns), "] (0: the width, at most ",
                  std::to_string(kScopeDefaultMaxColumns), "), got ",
                  std::to_string(scopes.columns));
    if (health) return validateHealth(*health);
    return Status::success();
  });
}

}  // namespace esf
