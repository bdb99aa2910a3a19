#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "server/rest/body_status.h"
#include "server/rest/models.h"

namespace hbemu::server::rest {

// One entry per model for the door: the body of `model` in `representation`, or nullopt when
// HBase's gateway has no such form (it answers 406: a CellSet as text/plain, the cluster
// version as protobuf, anything as application/octet-stream, which the door writes itself
// for a single value).
std::optional<std::string> EncodeBody(Representation representation, const CellSetModel& model);
std::optional<std::string> EncodeBody(Representation representation, const TableListModel& model);
std::optional<std::string> EncodeBody(Representation representation, const TableSchemaModel& model);
std::optional<std::string> EncodeBody(Representation representation, const TableInfoModel& model);
std::optional<std::string> EncodeBody(Representation representation, const VersionModel& model);
std::optional<std::string> EncodeBody(Representation representation,
                                      const StorageClusterVersionModel& model);
std::optional<std::string> EncodeBody(Representation representation,
                                      const StorageClusterStatusModel& model);
std::optional<std::string> EncodeBody(Representation representation, const NamespacesModel& model);
std::optional<std::string> EncodeBody(Representation representation,
                                      const NamespacesInstanceModel& model);

// Request bodies in the representation their Content-Type names: XML, JSON or protobuf; any
// other is HBase's 415. Errors as model_json.h, model_xml.h and model_protobuf.h describe.
BodyStatus DecodeBody(Representation representation, std::string_view body, CellSetModel* out);
BodyStatus DecodeBody(Representation representation, std::string_view body, TableSchemaModel* out);
BodyStatus DecodeBody(Representation representation, std::string_view body,
                      NamespacesInstanceModel* out);
BodyStatus DecodeBody(Representation representation, std::string_view body, ScannerModel* out);

}  // namespace hbemu::server::rest
