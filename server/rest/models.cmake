# The REST gateway's models and their codecs (JSON, XML, protobuf, text) and the JSON filter
# tree: no network, no door. The REST door (server/rest/) links it.
add_library(hbase_rest_models STATIC
  ${CMAKE_CURRENT_LIST_DIR}/base64.cc
  ${CMAKE_CURRENT_LIST_DIR}/body_shape.cc
  ${CMAKE_CURRENT_LIST_DIR}/java_format.cc
  ${CMAKE_CURRENT_LIST_DIR}/model_json.cc
  ${CMAKE_CURRENT_LIST_DIR}/model_json_parse.cc
  ${CMAKE_CURRENT_LIST_DIR}/model_xml.cc
  ${CMAKE_CURRENT_LIST_DIR}/model_xml_parse.cc
  ${CMAKE_CURRENT_LIST_DIR}/model_protobuf.cc
  ${CMAKE_CURRENT_LIST_DIR}/model_text.cc
  ${CMAKE_CURRENT_LIST_DIR}/scan_stream.cc
  ${CMAKE_CURRENT_LIST_DIR}/filter_model.cc
  ${CMAKE_CURRENT_LIST_DIR}/representation.cc
  ${CMAKE_CURRENT_LIST_DIR}/codecs.cc)
target_include_directories(hbase_rest_models PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(hbase_rest_models PUBLIC hbase_storage hbase_limits hbase_rest_proto Boost::boost
                      nlohmann_json::nlohmann_json)
target_compile_options(hbase_rest_models PRIVATE ${HBEMU_WARNINGS})
