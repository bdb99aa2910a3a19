#include "server/rest/bodies.h"

#include "server/rest/model_json.h"
#include "server/rest/model_protobuf.h"
#include "server/rest/model_text.h"
#include "server/rest/model_xml.h"

namespace hbemu::server::rest {

#define HBEMU_REST_ENCODE(Model, Name)                                          \
  std::string Encode(Representation rep, const Model& model) {                 \
    switch (rep) {                                                              \
      case Representation::kText: return Encode##Name##Text(model);             \
      case Representation::kXml: return Encode##Name##Xml(model);               \
      case Representation::kJson: return Encode##Name##Json(model);             \
      case Representation::kProtobuf: return Encode##Name##Protobuf(model);     \
      case Representation::kOctetStream: break;                                 \
    }                                                                           \
    return std::string();                                                       \
  }

HBEMU_REST_ENCODE(VersionModel, Version)
HBEMU_REST_ENCODE(StorageClusterStatusModel, StorageClusterStatus)
HBEMU_REST_ENCODE(TableListModel, TableList)
HBEMU_REST_ENCODE(TableSchemaModel, TableSchema)
HBEMU_REST_ENCODE(TableInfoModel, TableInfo)
HBEMU_REST_ENCODE(NamespacesModel, Namespaces)
HBEMU_REST_ENCODE(NamespacesInstanceModel, NamespacesInstance)
#undef HBEMU_REST_ENCODE

// HBase's cluster version has no protobuf form.
std::string Encode(Representation rep, const StorageClusterVersionModel& model) {
  switch (rep) {
    case Representation::kText: return EncodeStorageClusterVersionText(model);
    case Representation::kXml: return EncodeStorageClusterVersionXml(model);
    case Representation::kJson: return EncodeStorageClusterVersionJson(model);
    default: break;
  }
  return std::string();
}

// A CellSet has no text form (HBase answers 406 before it gets here).
std::string Encode(Representation rep, const CellSetModel& model) {
  switch (rep) {
    case Representation::kXml: return EncodeCellSetXml(model);
    case Representation::kJson: return EncodeCellSetJson(model);
    case Representation::kProtobuf: return EncodeCellSetProtobuf(model);
    default: break;
  }
  return std::string();
}

#define HBEMU_REST_DECODE(Model, Name)                                                   \
  BodyStatus Decode(Representation rep, std::string_view body, Model* out) {             \
    switch (rep) {                                                                       \
      case Representation::kXml: return Decode##Name##Xml(body, out);                    \
      case Representation::kJson: return Decode##Name##Json(body, out);                  \
      case Representation::kProtobuf: return Decode##Name##Protobuf(body, out);          \
      default: break;                                                                    \
    }                                                                                    \
    return BodyStatus::BadRequest("no " #Name " body in this representation");         \
  }

HBEMU_REST_DECODE(CellSetModel, CellSet)
HBEMU_REST_DECODE(TableSchemaModel, TableSchema)
HBEMU_REST_DECODE(NamespacesInstanceModel, NamespacesInstance)
HBEMU_REST_DECODE(ScannerModel, Scanner)
#undef HBEMU_REST_DECODE

}  // namespace hbemu::server::rest
