# Run by ctest (ConcurrencyLabel.cmake): labels `concurrency` each test gtest_discover_tests
# found whose suite is in hbemu_concurrency_suites. A name is "Suite.Test", or
# "Prefix/Suite.Test/Param" for a parameterized test.
if(EXISTS "${hbemu_discovered}")
  file(STRINGS "${hbemu_discovered}" hbemu_lines REGEX "^add_test\\(")
  foreach(hbemu_line IN LISTS hbemu_lines)
    if(NOT hbemu_line MATCHES "^add_test\\(\\[=\\[(.*)\\]=\\] ")
      continue()
    endif()
    set(hbemu_name "${CMAKE_MATCH_1}")
    string(REGEX REPLACE "^([^/.]*/)?([^./]+)\\..*$" "\\2" hbemu_suite "${hbemu_name}")
    list(FIND hbemu_concurrency_suites "${hbemu_suite}" hbemu_at)
    if(hbemu_at GREATER -1)
      set_tests_properties("${hbemu_name}" PROPERTIES LABELS concurrency)
    endif()
  endforeach()
endif()
