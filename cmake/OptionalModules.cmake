# The optional parts of libesframe (libcamera, MQTT, HTTP, network sources): how each is found and
# how its code is built, written once.

# esf_find_optional(<OPTION> <PREFIX> <description> <pkg-config module>...): the cache option
# <OPTION> (AUTO builds the part when pkg-config finds every module, ON insists, OFF skips) and,
# when found, the imported target PkgConfig::<PREFIX> of all of them.
function(esf_find_optional option prefix description)
  set(${option} AUTO CACHE STRING "${description}: AUTO, ON or OFF")
  if(${option} STREQUAL "ON")
    pkg_check_modules(${prefix} REQUIRED IMPORTED_TARGET GLOBAL ${ARGN})
  elseif(NOT ${option} STREQUAL "OFF")
    pkg_check_modules(${prefix} QUIET IMPORTED_TARGET GLOBAL ${ARGN})
  endif()
  if(TARGET PkgConfig::${prefix})
    message(STATUS "${description}: yes (${option}=${${option}})")
  else()
    message(STATUS "${description}: no (${option}=${${option}})")
  endif()
endfunction()

# esf_optional_module(<module target> INTO <layer's object library> LIBS <libraries>...
#                     [SOURCES <files>...] [LINKED_SOURCES <files>...] [MODULE_SOURCES <files>...])
# A shared libesframe (ESF_MODULES) gets the part as its own module, lib<target>.so beside it
# and installed in ESF_MODULE_SUBDIR, which the layer's loader opens on first use; the module
# links no libesframe (what it calls of it comes through the host table in MODULE_SOURCES) and
# must leave no symbol undefined. A static libesframe compiles the part into the layer itself
# (ESF_MODULES_LINKED=1 tells the loader). SOURCES go into both; LINKED_SOURCES only into the
# layer, MODULE_SOURCES only into the module.
function(esf_optional_module target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "INTO" "SOURCES;LINKED_SOURCES;MODULE_SOURCES;LIBS")
  if(ESF_MODULES)
    add_library(${target} MODULE ${arg_SOURCES} ${arg_MODULE_SOURCES})
    target_link_libraries(${target} PRIVATE esframe_headers ${arg_LIBS})
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
    install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/${ESF_MODULE_SUBDIR})
  else()
    target_sources(${arg_INTO} PRIVATE ${arg_SOURCES} ${arg_LINKED_SOURCES})
    target_compile_definitions(${arg_INTO} PRIVATE ESF_MODULES_LINKED=1)
    target_link_libraries(${arg_INTO} PRIVATE ${arg_LIBS})
  endif()
endfunction()
