#pragma once

#include <string>
#include <string_view>

#include "server/rest/body_shape.h"
#include "server/rest/body_status.h"
#include "server/rest/models.h"

namespace hbemu::server::rest {

// application/x-protobuf (and application/protobuf) bodies, thrift/hbase_rest.proto's
// messages, byte for byte as HBase 2.6.1's gateway writes them: the fields HBase sets and no
// others (a cell's timestamp only when it has one; a column family's ttl, maxVersions and
// compression copied from its TTL, VERSIONS and COMPRESSION attributes; a table's readOnly from
// READONLY). HBase has no protobuf form of /version/cluster (it answers 406).

std::string EncodeCellSetProtobuf(const CellSetModel& model);
std::string EncodeTableListProtobuf(const TableListModel& model);
std::string EncodeTableSchemaProtobuf(const TableSchemaModel& model);
std::string EncodeTableInfoProtobuf(const TableInfoModel& model);
std::string EncodeVersionProtobuf(const VersionModel& model);
std::string EncodeStorageClusterStatusProtobuf(const StorageClusterStatusModel& model);
std::string EncodeNamespacesProtobuf(const NamespacesModel& model);
// Empty when there are no properties, as HBase answers for "default".
std::string EncodeNamespacesInstanceProtobuf(const NamespacesInstanceModel& model);
// A scanner specification as HBase's client (RemoteHTable) sends it: batch, maxVersions and
// cacheBlocks always; start/end row, start/end time, caching and filter only when set. For
// tests and clients; the gateway never answers with one.
std::string EncodeScannerProtobuf(const ScannerModel& model);

// Request bodies. HBase answers 500 to bytes protobuf cannot parse and 400 to a message missing
// a required field (a row without its key); unknown fields are skipped. A CellSet's rows and
// cells are counted on the wire before it is parsed (bounds.max_elements).
BodyStatus DecodeCellSetProtobuf(std::string_view body, CellSetModel* out,
                                 const BodyBounds& bounds = CurrentBodyBounds());
// Copies ttl/maxVersions/compression into TTL/VERSIONS/COMPRESSION and readOnly into READONLY,
// as HBase does.
BodyStatus DecodeTableSchemaProtobuf(std::string_view body, TableSchemaModel* out);
// Leaves out->namespace_name alone (it comes from the URL).
BodyStatus DecodeNamespacesInstanceProtobuf(std::string_view body, NamespacesInstanceModel* out);
BodyStatus DecodeScannerProtobuf(std::string_view body, ScannerModel* out);

}  // namespace hbemu::server::rest
