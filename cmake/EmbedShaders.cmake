# esf_embed_shaders(<target> SYMBOL <symbol> [BASE_DIR <dir>] FILES <files...>)
# Builds an object library <target> that holds every file as a string, in a table named <symbol>
# of type esf::EmbeddedFile (glsl_es/embedded_file.hpp). A file's name in the table is its path
# under BASE_DIR ("common/pixels.glsl"), or its file name without one. Every
# `#include "NAME"` must name a file of the same table (the build stops otherwise); the shader
# library resolves them (platform/shader_source.hpp). Edits to a file rebuild the table.
set(_ESF_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed_files.cmake")

function(esf_embed_shaders target)
  cmake_parse_arguments(ARG "" "SYMBOL;BASE_DIR" "FILES" ${ARGN})
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_embedded.cpp")
  set(abs_files)
  foreach(f IN LISTS ARG_FILES)
    get_filename_component(a "${f}" ABSOLUTE)
    list(APPEND abs_files "${a}")
  endforeach()
  set(base_dir "")
  if(ARG_BASE_DIR)
    get_filename_component(base_dir "${ARG_BASE_DIR}" ABSOLUTE)
  endif()
  string(REPLACE ";" "|" joined "${abs_files}")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DSYMBOL=${ARG_SYMBOL} "-DFILES=${joined}"
            "-DBASE_DIR=${base_dir}" -P "${_ESF_EMBED_SCRIPT}"
    DEPENDS ${abs_files} "${_ESF_EMBED_SCRIPT}"
    COMMENT "Embedding shaders into ${target}"
    VERBATIM)
  add_library(${target} OBJECT "${out}")
  target_link_libraries(${target} PUBLIC esframe_embedded_file)
endfunction()
