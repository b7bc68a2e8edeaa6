# esf_embed_shaders(<target> NAMESPACE_SYMBOL <symbol> FILES <files...>)
# Builds a static library <target> that holds every file as a string, in a table named <symbol>
# of type esf::EmbeddedFile (glsl_es/embedded_file.hpp). Edits to a shader rebuild the table.
set(_ESF_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/embed_files.cmake")

function(esf_embed_shaders target)
  cmake_parse_arguments(ARG "" "SYMBOL" "FILES" ${ARGN})
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_embedded.cpp")
  set(abs_files)
  foreach(f IN LISTS ARG_FILES)
    get_filename_component(a "${f}" ABSOLUTE)
    list(APPEND abs_files "${a}")
  endforeach()
  string(REPLACE ";" "|" joined "${abs_files}")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DSYMBOL=${ARG_SYMBOL} "-DFILES=${joined}"
            -P "${_ESF_EMBED_SCRIPT}"
    DEPENDS ${abs_files} "${_ESF_EMBED_SCRIPT}"
    COMMENT "Embedding shaders into ${target}"
    VERBATIM)
  add_library(${target} OBJECT "${out}")
  target_link_libraries(${target} PUBLIC esframe_embedded_file)
endfunction()
