#pragma once
// Python keyword arguments as the library's typed configurations: PipelineConfig field by field
// (esframe.Pipeline) and SourceConfig (esframe.open, Pipeline.open). Unknown names and values
// raise esframe.Error("invalid-argument") naming the argument.
#include <pybind11/pybind11.h>

#include <string>

#include "esframe/pipeline_config.hpp"
#include "esframe/source.hpp"

namespace esf::python {

PipelineConfig pipelineConfig(const pybind11::dict& kwargs);
SourceConfig sourceConfig(const pybind11::dict& kwargs);
// The keyword arguments that are SourceConfig's (source_options) or the others (esframe.open and
// esframe.run take both kinds in one **options).
pybind11::dict selectArguments(const pybind11::dict& options, bool source_options);

}  // namespace esf::python
