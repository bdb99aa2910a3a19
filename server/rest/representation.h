#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/rest/models.h"

namespace hbemu::server::rest {

// Media types, as HBase's gateway spells them.
inline constexpr std::string_view kTextPlain = "text/plain";
inline constexpr std::string_view kTextXml = "text/xml";
inline constexpr std::string_view kJson = "application/json";
inline constexpr std::string_view kProtobuf = "application/x-protobuf";
inline constexpr std::string_view kProtobufAlias = "application/protobuf";
inline constexpr std::string_view kOctetStream = "application/octet-stream";

// What HBase's resources produce, in the order Jersey prefers them for "Accept: */*" (or none):
// version, tables, schema, regions, namespaces and cluster status answer text/plain first...
inline const std::vector<std::string_view>& ProducesTextFirst() {
  static const std::vector<std::string_view> kTypes = {kTextPlain, kTextXml, kJson, kProtobuf,
                                                       kProtobufAlias};
  return kTypes;
}
// ... /version/cluster has no protobuf form ...
inline const std::vector<std::string_view>& ProducesClusterVersion() {
  static const std::vector<std::string_view> kTypes = {kTextPlain, kTextXml, kJson};
  return kTypes;
}
// ... and rows, cells and scanners answer XML first, and a single value as octet-stream.
inline const std::vector<std::string_view>& ProducesCells() {
  static const std::vector<std::string_view> kTypes = {kTextXml, kJson, kProtobuf, kProtobufAlias,
                                                       kOctetStream};
  return kTypes;
}

// The representation a media type names (case-insensitive, parameters ignored); nullopt for
// anything else. For a request's Content-Type.
std::optional<Representation> RepresentationOf(std::string_view media_type);

struct Negotiated {
  Representation representation;
  // The Content-Type to answer with: the produced type, followed by the parameters (other than
  // q) of the Accept entry that named it exactly ("application/json;charset=utf-8"), as Jersey
  // echoes them.
  std::string content_type;
};

// Jersey's choice among `produces` for an Accept header, as HBase 2.6.1's gateway makes it:
// entries ordered by q (highest first; q=0 is not refused, only last), then by specificity
// (type/subtype, type/*, */*), then as the client listed them; the first entry matching a
// produced type picks the first such type. An empty header is "*/*". nullopt: nothing matches
// (HBase answers 406).
std::optional<Negotiated> NegotiateAccept(std::string_view accept,
                                          const std::vector<std::string_view>& produces);

}  // namespace hbemu::server::rest
