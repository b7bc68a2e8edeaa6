#pragma once
// ESF_API marks libesframe's public API: the classes and free functions declared in
// include/esframe/. The library is compiled with -fvisibility=hidden and
// -fvisibility-inlines-hidden, so only what carries this mark is exported from libesframe.so
// (tests/package/check-exports.py holds it to that; toolchain/check-abi compares it with
// abi/libesframe.abi). Classes with virtual functions carry it too, so that their typeinfo and
// vtable are one across the library and an application.
#if defined(__GNUC__) || defined(__clang__)
#define ESF_API __attribute__((visibility("default")))
#else
#define ESF_API
#endif
