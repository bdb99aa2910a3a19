#pragma once

#include <string>
#include <string_view>

#include "server/rest/body_shape.h"
#include "server/rest/body_status.h"
#include "server/rest/models.h"

namespace hbemu::server::rest {

// text/xml bodies byte for byte as HBase 2.6.1's gateway writes them (JAXB): the declaration
// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` with nothing after it, no
// whitespace between elements, an element without children or attributes' content self-closed
// (but an empty cell value is "<Cell ...></Cell>"), byte fields in base64, &, <, > and " escaped
// in attributes and text alike.
// Attribute order is JAXB's: alphabetical for the fixed ones (Version, Region, Node,
// ClusterStatus), "name" first and then the model's own order for a schema's attribute maps.
// model_xml.cc.

std::string EncodeCellSetXml(const CellSetModel& model);
std::string EncodeTableListXml(const TableListModel& model);
std::string EncodeTableSchemaXml(const TableSchemaModel& model);
std::string EncodeTableInfoXml(const TableInfoModel& model);
std::string EncodeVersionXml(const VersionModel& model);
std::string EncodeStorageClusterVersionXml(const StorageClusterVersionModel& model);
std::string EncodeStorageClusterStatusXml(const StorageClusterStatusModel& model);
std::string EncodeNamespacesXml(const NamespacesModel& model);
std::string EncodeNamespacesInstanceXml(const NamespacesInstanceModel& model);

// Request bodies HBase accepts as XML (model_xml_parse.cc). As JAXB reads them: unknown
// attributes and elements are ignored, base64 is read leniently (characters outside the
// alphabet skipped). HBase answers 400 to a body that is not well-formed XML, has another root
// element or declares a DOCTYPE, and 500 to a number it cannot read (timestamp="abc"); the
// BodyStatus carries that status and what was wrong.
BodyStatus DecodeCellSetXml(std::string_view body, CellSetModel* out,
                            const BodyBounds& bounds = CurrentBodyBounds());
BodyStatus DecodeTableSchemaXml(std::string_view body, TableSchemaModel* out,
                                const BodyBounds& bounds = CurrentBodyBounds());
// Leaves out->namespace_name alone (it comes from the URL).
BodyStatus DecodeNamespacesInstanceXml(std::string_view body, NamespacesInstanceModel* out,
                                       const BodyBounds& bounds = CurrentBodyBounds());
BodyStatus DecodeScannerXml(std::string_view body, ScannerModel* out,
                            const BodyBounds& bounds = CurrentBodyBounds());

}  // namespace hbemu::server::rest
