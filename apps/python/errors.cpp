#include "apps/python/errors.hpp"

namespace py = pybind11;

namespace esf::python {
namespace {

PyObject* g_error_type = nullptr;  // esframe.Error, owned by the module for the process's life

}  // namespace

void registerErrors(py::module_& module) {
  g_error_type = PyErr_NewExceptionWithDoc(
      "esframe.Error",
      "An esframe failure. .code is the error code's stable name (\"invalid-argument\", "
      "\"unsupported\", \"not-found\", \"corrupt-data\", \"gpu\", ...; esframe.ERROR_CODES lists "
      "them) and str(error) the one-line message naming what failed.",
      PyExc_RuntimeError, nullptr);
  if (!g_error_type) throw py::error_already_set();
  module.add_object("Error", py::handle(g_error_type));
  py::list codes;
  for (int c = 0; c <= int(ErrorCode::kOutOfMemory); ++c) codes.append(errorCodeName(ErrorCode(c)));
  module.attr("ERROR_CODES") = py::tuple(codes);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ErrorException& e) {
      py::object type = py::reinterpret_borrow<py::object>(g_error_type);
      py::object instance = type(e.error().message);
      instance.attr("code") = errorCodeName(e.error().code);
      PyErr_SetObject(g_error_type, instance.ptr());
    }
  });
}

}  // namespace esf::python
