#include "server/rest/codecs.h"

#include "server/rest/model_json.h"
#include "server/rest/model_protobuf.h"
#include "server/rest/model_text.h"
#include "server/rest/model_xml.h"

namespace hbemu::server::rest {

namespace {

// A model's four encoders; nullptr where HBase has no such form.
template <typename Model>
struct Encoders {
  std::string (*text)(const Model&);
  std::string (*xml)(const Model&);
  std::string (*json)(const Model&);
  std::string (*protobuf)(const Model&);
};

template <typename Model>
std::optional<std::string> Encode(Representation r, const Model& model, const Encoders<Model>& e) {
  std::string (*encoder)(const Model&) = nullptr;
  switch (r) {
    case Representation::kText: encoder = e.text; break;
    case Representation::kXml: encoder = e.xml; break;
    case Representation::kJson: encoder = e.json; break;
    case Representation::kProtobuf: encoder = e.protobuf; break;
    case Representation::kOctetStream: break;
  }
  if (encoder == nullptr) return std::nullopt;
  return encoder(model);
}

BodyStatus Unsupported() {
  return BodyStatus::UnsupportedMediaType("the body's Content-Type is not XML, JSON or protobuf");
}

}  // namespace

std::optional<std::string> EncodeBody(Representation r, const CellSetModel& m) {
  return Encode<CellSetModel>(r, m, {nullptr, EncodeCellSetXml, EncodeCellSetJson, EncodeCellSetProtobuf});
}
std::optional<std::string> EncodeBody(Representation r, const TableListModel& m) {
  return Encode<TableListModel>(
      r, m, {EncodeTableListText, EncodeTableListXml, EncodeTableListJson, EncodeTableListProtobuf});
}
std::optional<std::string> EncodeBody(Representation r, const TableSchemaModel& m) {
  return Encode<TableSchemaModel>(r, m, {EncodeTableSchemaText, EncodeTableSchemaXml,
                                         EncodeTableSchemaJson, EncodeTableSchemaProtobuf});
}
std::optional<std::string> EncodeBody(Representation r, const TableInfoModel& m) {
  return Encode<TableInfoModel>(
      r, m, {EncodeTableInfoText, EncodeTableInfoXml, EncodeTableInfoJson, EncodeTableInfoProtobuf});
}
std::optional<std::string> EncodeBody(Representation r, const VersionModel& m) {
  return Encode<VersionModel>(
      r, m, {EncodeVersionText, EncodeVersionXml, EncodeVersionJson, EncodeVersionProtobuf});
}
std::optional<std::string> EncodeBody(Representation r, const StorageClusterVersionModel& m) {
  return Encode<StorageClusterVersionModel>(
      r, m, {EncodeStorageClusterVersionText, EncodeStorageClusterVersionXml,
             EncodeStorageClusterVersionJson, nullptr});
}
std::optional<std::string> EncodeBody(Representation r, const StorageClusterStatusModel& m) {
  return Encode<StorageClusterStatusModel>(
      r, m, {EncodeStorageClusterStatusText, EncodeStorageClusterStatusXml,
             EncodeStorageClusterStatusJson, EncodeStorageClusterStatusProtobuf});
}
std::optional<std::string> EncodeBody(Representation r, const NamespacesModel& m) {
  return Encode<NamespacesModel>(
      r, m, {EncodeNamespacesText, EncodeNamespacesXml, EncodeNamespacesJson, EncodeNamespacesProtobuf});
}
std::optional<std::string> EncodeBody(Representation r, const NamespacesInstanceModel& m) {
  return Encode<NamespacesInstanceModel>(
      r, m, {EncodeNamespacesInstanceText, EncodeNamespacesInstanceXml, EncodeNamespacesInstanceJson,
             EncodeNamespacesInstanceProtobuf});
}

BodyStatus DecodeBody(Representation r, std::string_view body, CellSetModel* out) {
  switch (r) {
    case Representation::kXml: return DecodeCellSetXml(body, out);
    case Representation::kJson: return DecodeCellSetJson(body, out);
    case Representation::kProtobuf: return DecodeCellSetProtobuf(body, out);
    default: return Unsupported();
  }
}

BodyStatus DecodeBody(Representation r, std::string_view body, TableSchemaModel* out) {
  switch (r) {
    case Representation::kXml: return DecodeTableSchemaXml(body, out);
    case Representation::kJson: return DecodeTableSchemaJson(body, out);
    case Representation::kProtobuf: return DecodeTableSchemaProtobuf(body, out);
    default: return Unsupported();
  }
}

BodyStatus DecodeBody(Representation r, std::string_view body, NamespacesInstanceModel* out) {
  switch (r) {
    case Representation::kXml: return DecodeNamespacesInstanceXml(body, out);
    case Representation::kJson: return DecodeNamespacesInstanceJson(body, out);
    case Representation::kProtobuf: return DecodeNamespacesInstanceProtobuf(body, out);
    default: return Unsupported();
  }
}

BodyStatus DecodeBody(Representation r, std::string_view body, ScannerModel* out) {
  switch (r) {
    case Representation::kXml: return DecodeScannerXml(body, out);
    case Representation::kJson: return DecodeScannerJson(body, out);
    case Representation::kProtobuf: return DecodeScannerProtobuf(body, out);
    default: return Unsupported();
  }
}

}  // namespace hbemu::server::rest
