# The `concurrency` CTest label, which the ThreadSanitizer run selects (scripts/test.sh:
# `ctest -L concurrency`). A concurrency test is any test of a suite defined in a test file that
# starts threads: std::thread, std::async, a ThriftServer or admin HttpServer, call threads. The
# suites are found in the sources when CMake configures, so a new threaded test is labelled
# without being named anywhere; ctest then labels each discovered test of those suites.
function(hbemu_label_concurrency_tests target)
  get_target_property(sources ${target} SOURCES)
  set(suites "")
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\.cc$")
      continue()
    endif()
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    file(READ "${path}" text)
    if(NOT text MATCHES "std::thread|std::async|std::jthread|pthread_create|ThriftServer|HttpServer|CallThreads")
      continue()
    endif()
    string(REGEX MATCHALL "TEST(_F|_P)?\\([A-Za-z0-9_]+," found "${text}")
    foreach(match IN LISTS found)
      string(REGEX REPLACE "^TEST(_F|_P)?\\(([A-Za-z0-9_]+),$" "\\2" suite "${match}")
      list(APPEND suites "${suite}")
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES suites)
  set(script "${CMAKE_CURRENT_BINARY_DIR}/${target}_concurrency_label.cmake")
  file(WRITE "${script}"
       "set(hbemu_concurrency_suites \"${suites}\")\n"
       "set(hbemu_discovered \"${CMAKE_CURRENT_BINARY_DIR}/${target}[1]_tests.cmake\")\n"
       "include(\"${PROJECT_SOURCE_DIR}/cmake/ApplyConcurrencyLabel.cmake\")\n")
  # After gtest_discover_tests' own include file, so the discovered tests exist.
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${script}")
endfunction()
