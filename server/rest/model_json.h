#pragma once

#include <string>
#include <string_view>

#include "server/rest/body_shape.h"
#include "server/rest/body_status.h"
#include "server/rest/models.h"

namespace hbemu::server::rest {

// application/json bodies byte for byte as HBase 2.6.1's gateway writes them (Jackson over the
// JAXB annotations): keys in HBase's order (not sorted), no whitespace, byte fields in base64,
// control characters escaped as \u00XX with upper-case hex, other bytes as they are. Writers:
// model_json.cc; request decoders: model_json_parse.cc.

std::string EncodeCellSetJson(const CellSetModel& model);
std::string EncodeTableListJson(const TableListModel& model);
std::string EncodeTableSchemaJson(const TableSchemaModel& model);
std::string EncodeTableInfoJson(const TableInfoModel& model);
std::string EncodeVersionJson(const VersionModel& model);
std::string EncodeStorageClusterVersionJson(const StorageClusterVersionModel& model);
std::string EncodeStorageClusterStatusJson(const StorageClusterStatusModel& model);
std::string EncodeNamespacesJson(const NamespacesModel& model);
// {"properties":null} when there are none, as HBase answers for "default".
std::string EncodeNamespacesInstanceJson(const NamespacesInstanceModel& model);

// Request bodies HBase accepts as JSON. Jackson refuses an unknown property, a wrong type and
// bad base64; HBase answers those (and a syntax error) with 500 and an empty body, which the
// returned BodyStatus carries along with what was wrong.
BodyStatus DecodeCellSetJson(std::string_view body, CellSetModel* out,
                             const BodyBounds& bounds = CurrentBodyBounds());
// Any property other than "name" and "ColumnSchema" is a table attribute (values as strings).
BodyStatus DecodeTableSchemaJson(std::string_view body, TableSchemaModel* out,
                                 const BodyBounds& bounds = CurrentBodyBounds());
// Leaves out->namespace_name alone (it comes from the URL).
BodyStatus DecodeNamespacesInstanceJson(std::string_view body, NamespacesInstanceModel* out,
                                        const BodyBounds& bounds = CurrentBodyBounds());
// The filter string is kept as it came; filter_model.h builds it.
BodyStatus DecodeScannerJson(std::string_view body, ScannerModel* out,
                             const BodyBounds& bounds = CurrentBodyBounds());

}  // namespace hbemu::server::rest
