#include "server/rest/representation.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "server/rest/model_json.h"
#include "server/rest/model_protobuf.h"
#include "server/rest/model_text.h"
#include "server/rest/model_xml.h"

namespace hbemu::server::rest {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

struct Range {
  std::string type;     // "text", "*"
  std::string subtype;  // "xml", "*"
  double quality = 1.0;
  int specificity = 0;  // 2: a/b, 1: a/*, 0: */*
  size_t order = 0;
};

std::vector<Range> ParseAccept(std::string_view accept) {
  std::vector<Range> ranges;
  size_t begin = 0;
  while (begin <= accept.size()) {
    size_t end = accept.find(',', begin);
    if (end == std::string_view::npos) end = accept.size();
    std::string_view item = Trim(accept.substr(begin, end - begin));
    begin = end + 1;
    if (item.empty()) continue;
    Range range;
    const size_t semicolon = item.find(';');
    const std::string media = Lower(Trim(item.substr(0, semicolon)));
    const size_t slash = media.find('/');
    if (slash == std::string::npos) {
      // "*" alone is what some clients send for everything.
      if (media != "*") continue;
      range.type = range.subtype = "*";
    } else {
      range.type = media.substr(0, slash);
      range.subtype = media.substr(slash + 1);
    }
    if (semicolon != std::string_view::npos) {
      std::string_view params = item.substr(semicolon + 1);
      while (!params.empty()) {
        const size_t next = params.find(';');
        const std::string param = Lower(Trim(params.substr(0, next)));
        if (param.rfind("q=", 0) == 0) range.quality = std::atof(param.c_str() + 2);
        if (next == std::string_view::npos) break;
        params.remove_prefix(next + 1);
      }
    }
    range.specificity = range.type == "*" ? 0 : range.subtype == "*" ? 1 : 2;
    range.order = ranges.size();
    if (range.quality > 0) ranges.push_back(std::move(range));
  }
  return ranges;
}

bool Admits(const Range& range, std::string_view produced) {
  const size_t slash = produced.find('/');
  const std::string_view type = produced.substr(0, slash);
  const std::string_view subtype = produced.substr(slash + 1);
  return (range.type == "*" || range.type == type) &&
         (range.subtype == "*" || range.subtype == subtype);
}

}  // namespace

const Produces& MetadataTypes() {
  static const Produces types = {"text/plain", "text/xml", "application/json",
                                 "application/x-protobuf", "application/protobuf"};
  return types;
}

const Produces& CellTypes() {
  static const Produces types = {"text/xml", "application/json", "application/x-protobuf",
                                 "application/protobuf"};
  return types;
}

std::optional<std::string> Negotiate(std::string_view accept, const Produces& produces) {
  std::vector<Range> ranges = ParseAccept(accept);
  if (Trim(accept).empty()) ranges = {Range{"*", "*", 1.0, 0, 0}};
  std::stable_sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
    if (a.quality != b.quality) return a.quality > b.quality;
    return a.specificity > b.specificity;
  });
  for (const Range& range : ranges) {
    for (std::string_view type : produces) {
      if (Admits(range, type)) return std::string(type);
    }
  }
  return std::nullopt;
}

std::optional<Representation> RepresentationOf(std::string_view media_type) {
  const std::string essence = Lower(Trim(media_type.substr(0, media_type.find(';'))));
  if (essence == "text/plain") return Representation::kText;
  if (essence == "text/xml") return Representation::kXml;
  if (essence == "application/json") return Representation::kJson;
  if (essence == "application/x-protobuf" || essence == "application/protobuf") {
    return Representation::kProtobuf;
  }
  if (essence == "application/octet-stream") return Representation::kOctetStream;
  return std::nullopt;
}

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
