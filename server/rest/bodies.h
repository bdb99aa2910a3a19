#pragma once

#include <string>
#include <string_view>

#include "server/rest/body_status.h"
#include "server/rest/models.h"

namespace hbemu::server::rest {

// The codecs (model_json.h, model_xml.h, model_protobuf.h, model_text.h) by representation,
// for the door's resources: one call site per model whatever the negotiated type.

// Bodies of each model in a representation the resource produces (negotiation chose it).
std::string Encode(Representation rep, const VersionModel& model);
std::string Encode(Representation rep, const StorageClusterVersionModel& model);
std::string Encode(Representation rep, const StorageClusterStatusModel& model);
std::string Encode(Representation rep, const TableListModel& model);
std::string Encode(Representation rep, const TableSchemaModel& model);
std::string Encode(Representation rep, const TableInfoModel& model);
std::string Encode(Representation rep, const NamespacesModel& model);
std::string Encode(Representation rep, const NamespacesInstanceModel& model);
std::string Encode(Representation rep, const CellSetModel& model);

// Request bodies: XML, JSON or protobuf (the caller has answered 415 for other types).
BodyStatus Decode(Representation rep, std::string_view body, CellSetModel* out);
BodyStatus Decode(Representation rep, std::string_view body, TableSchemaModel* out);
BodyStatus Decode(Representation rep, std::string_view body, NamespacesInstanceModel* out);
BodyStatus Decode(Representation rep, std::string_view body, ScannerModel* out);

}  // namespace hbemu::server::rest
