// The XML request bodies: Boost.PropertyTree's parser, after the shape check of body_shape.h.
#include <limits>
#include <sstream>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include "server/rest/base64.h"
#include "server/rest/model_xml.h"

namespace hbemu::server::rest {

namespace {

using boost::property_tree::ptree;
constexpr char kAttributes[] = "<xmlattr>";

// Parses `body` and finds its root element, which must be `root`. 400 otherwise.
BodyStatus ParseRoot(std::string_view body, const char* root, const BodyBounds& bounds,
                     ptree* doc, const ptree** element) {
  BodyStatus shape = CheckXmlShape(body, bounds);
  if (!shape.ok()) return shape;
  try {
    std::istringstream in{std::string(body)};
    boost::property_tree::read_xml(in, *doc);
  } catch (const boost::property_tree::xml_parser_error& e) {
    return BodyStatus::BadRequest(std::string("body is not well-formed XML: ") + e.message());
  }
  for (const auto& [name, child] : *doc) {
    if (name == "<xmlcomment>") continue;
    if (name != root) {
      return BodyStatus::BadRequest("unexpected root element <" + name + ">, expected <" + root + ">");
    }
    *element = &child;
    return BodyStatus::Ok();
  }
  return BodyStatus::BadRequest(std::string("body holds no <") + root + "> element");
}

// The element's attributes as (name, value), in document order.
std::vector<std::pair<std::string, std::string>> Attributes(const ptree& element) {
  std::vector<std::pair<std::string, std::string>> out;
  if (auto attrs = element.get_child_optional(kAttributes)) {
    for (const auto& [name, value] : *attrs) out.emplace_back(name, value.data());
  }
  return out;
}

// A number as JAXB reads an xs:int/xs:long attribute (surrounding whitespace allowed); a 500
// naming the attribute when it is none (HBase's answer to timestamp="abc").
BodyStatus ReadNumber(const std::string& name, const std::string& text, int64_t min, int64_t max,
                      int64_t* out) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  const size_t end = text.find_last_not_of(" \t\r\n");
  const std::string trimmed =
      begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
  try {
    size_t used = 0;
    const long long v = std::stoll(trimmed, &used);
    if (used == trimmed.size() && v >= min && v <= max) {
      *out = v;
      return BodyStatus::Ok();
    }
  } catch (const std::exception&) {
  }
  return BodyStatus::ServerError("attribute \"" + name + "\" is not a number in range: \"" + text +
                                 "\"");
}

BodyStatus ReadInt32(const std::string& name, const std::string& text, int32_t* out) {
  int64_t v = 0;
  BodyStatus s = ReadNumber(name, text, std::numeric_limits<int32_t>::min(),
                            std::numeric_limits<int32_t>::max(), &v);
  if (s.ok()) *out = static_cast<int32_t>(v);
  return s;
}

}  // namespace

BodyStatus DecodeCellSetXml(std::string_view body, CellSetModel* out, const BodyBounds& bounds) {
  ptree doc;
  const ptree* root = nullptr;
  BodyStatus s = ParseRoot(body, "CellSet", bounds, &doc, &root);
  if (!s.ok()) return s;
  *out = CellSetModel();
  for (const auto& [name, row_element] : *root) {
    if (name != "Row") continue;
    RowModel row;
    for (const auto& [attr, value] : Attributes(row_element)) {
      if (attr == "key") row.key = Base64DecodeLenient(value);
    }
    for (const auto& [child, cell_element] : row_element) {
      if (child != "Cell") continue;
      CellModel cell;
      for (const auto& [attr, value] : Attributes(cell_element)) {
        if (attr == "column") {
          cell.column = Base64DecodeLenient(value);
        } else if (attr == "timestamp") {
          int64_t ts = 0;
          s = ReadNumber(attr, value, std::numeric_limits<int64_t>::min(),
                         std::numeric_limits<int64_t>::max(), &ts);
          if (!s.ok()) return s;
          cell.timestamp = ts;
        }
      }
      cell.value = Base64DecodeLenient(cell_element.data());
      row.cells.push_back(std::move(cell));
    }
    out->rows.push_back(std::move(row));
  }
  return BodyStatus::Ok();
}

BodyStatus DecodeTableSchemaXml(std::string_view body, TableSchemaModel* out,
                                const BodyBounds& bounds) {
  ptree doc;
  const ptree* root = nullptr;
  BodyStatus s = ParseRoot(body, "TableSchema", bounds, &doc, &root);
  if (!s.ok()) return s;
  *out = TableSchemaModel();
  for (auto& [attr, value] : Attributes(*root)) {
    if (attr == "name") {
      out->name = std::move(value);
    } else {
      out->attrs.emplace_back(std::move(attr), std::move(value));
    }
  }
  for (const auto& [name, column_element] : *root) {
    if (name != "ColumnSchema") continue;
    ColumnSchemaModel column;
    for (auto& [attr, value] : Attributes(column_element)) {
      if (attr == "name") {
        column.name = std::move(value);
      } else {
        column.attrs.emplace_back(std::move(attr), std::move(value));
      }
    }
    out->columns.push_back(std::move(column));
  }
  return BodyStatus::Ok();
}

BodyStatus DecodeNamespacesInstanceXml(std::string_view body, NamespacesInstanceModel* out,
                                       const BodyBounds& bounds) {
  ptree doc;
  const ptree* root = nullptr;
  BodyStatus s = ParseRoot(body, "NamespaceProperties", bounds, &doc, &root);
  if (!s.ok()) return s;
  out->properties.clear();
  for (const auto& [name, properties] : *root) {
    if (name != "properties") continue;
    for (const auto& [entry_name, entry] : properties) {
      if (entry_name != "entry") continue;
      out->properties.emplace_back(entry.get<std::string>("key", ""),
                                   entry.get<std::string>("value", ""));
    }
  }
  return BodyStatus::Ok();
}

BodyStatus DecodeScannerXml(std::string_view body, ScannerModel* out, const BodyBounds& bounds) {
  ptree doc;
  const ptree* root = nullptr;
  BodyStatus s = ParseRoot(body, "Scanner", bounds, &doc, &root);
  if (!s.ok()) return s;
  *out = ScannerModel();
  for (const auto& [attr, value] : Attributes(*root)) {
    if (attr == "startRow") {
      out->start_row = Base64DecodeLenient(value);
    } else if (attr == "endRow") {
      out->end_row = Base64DecodeLenient(value);
    } else if (attr == "batch") {
      s = ReadInt32(attr, value, &out->batch);
    } else if (attr == "caching") {
      s = ReadInt32(attr, value, &out->caching);
    } else if (attr == "maxVersions") {
      s = ReadInt32(attr, value, &out->max_versions);
    } else if (attr == "startTime" || attr == "endTime") {
      s = ReadNumber(attr, value, std::numeric_limits<int64_t>::min(),
                     std::numeric_limits<int64_t>::max(),
                     attr == "startTime" ? &out->start_time : &out->end_time);
    } else if (attr == "cacheBlocks") {
      // xs:boolean: "true"/"1" and "false"/"0"; JAXB reads anything else as false.
      out->cache_blocks = value == "true" || value == "1";
    }
    if (!s.ok()) return s;
  }
  for (const auto& [name, child] : *root) {
    if (name == "column") {
      out->columns.push_back(Base64DecodeLenient(child.data()));
    } else if (name == "filter") {
      out->filter = child.data();
    } else if (name == "labels") {
      out->labels.push_back(child.data());
    }
  }
  return BodyStatus::Ok();
}

}  // namespace hbemu::server::rest
