#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/rest/body_status.h"
#include "server/rest/models.h"

namespace hbemu::server::rest {

// The media types a resource produces, in the gateway's order of preference.
using Produces = std::vector<std::string_view>;

// text/plain, text/xml, application/json, application/x-protobuf, application/protobuf: what
// the metadata resources (version, tables, schema, regions, namespaces, status) produce.
const Produces& MetadataTypes();
// The same without text/plain (version/cluster has no protobuf form, see there).
const Produces& CellTypes();

// HBase's (Jersey's) choice of response type for an Accept header: the client's types by
// quality, then specificity (a/b before a/* before */*), then the client's order; for each,
// the first type of `produces` it admits. An absent Accept admits everything. nullopt: 406.
std::optional<std::string> Negotiate(std::string_view accept, const Produces& produces);

// The representation of a media type (parameters and case ignored); nullopt for one HBase does
// not read or write.
std::optional<Representation> RepresentationOf(std::string_view media_type);

// Bodies of each model in a representation the resource produces (Negotiate chose it).
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
