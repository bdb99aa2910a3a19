// The JSON request bodies: nlohmann::json's parser, after the shape check of body_shape.h.
#include <limits>

#include <nlohmann/json.hpp>

#include "server/rest/base64.h"
#include "server/rest/model_json.h"

namespace hbemu::server::rest {

namespace {

// ordered_json keeps document order (HBase keeps attributes and properties in insertion order).
using Json = nlohmann::ordered_json;

// ----------------------------------------------------------------------------- decoding

// Parses `body` after the shape check; a 500 naming the fault otherwise.
BodyStatus Parse(std::string_view body, const BodyBounds& bounds, Json* out) {
  BodyStatus shape = CheckJsonShape(body, bounds);
  if (!shape.ok()) return shape;
  *out = Json::parse(body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (out->is_discarded()) return BodyStatus::ServerError("body is not valid JSON");
  return BodyStatus::Ok();
}

// Jackson reads an empty body, or `null`, as no model at all. HBase's row and schema resources
// then fail on it with a NullPointerException, a RuntimeException they answer 400.
bool NoModel(std::string_view body) {
  return body.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

BodyStatus NullModel(const char* model) {
  return BodyStatus::ResourceBadRequest(
      std::string("java.lang.NullPointerException: the body holds no ") + model);
}

BodyStatus Unknown(const std::string& key, const char* model) {
  return BodyStatus::ServerError("unrecognized field \"" + key + "\" in " + model);
}

BodyStatus WrongType(const std::string& key, const char* expected) {
  return BodyStatus::ServerError("field \"" + key + "\" must be " + expected);
}

BodyStatus ObjectExpected(const char* model) {
  return BodyStatus::ServerError(std::string(model) + " must be a JSON object");
}

BodyStatus ReadBytes(const std::string& key, const Json& v, std::string* out) {
  if (v.is_null()) {
    out->clear();
    return BodyStatus::Ok();
  }
  if (!v.is_string()) return WrongType(key, "a base64 string");
  if (!Base64DecodeStrict(v.get_ref<const std::string&>(), out)) {
    return BodyStatus::ServerError("field \"" + key + "\" is not valid base64");
  }
  return BodyStatus::Ok();
}

// An integer as Jackson reads one: a JSON integer, a string of one, or a fraction (truncated
// toward zero: the gateway accepts "batch":1.5), within [min, max].
BodyStatus ReadInt(const std::string& key, const Json& v, int64_t min, int64_t max, int64_t* out) {
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!(d >= static_cast<double>(min) && d <= static_cast<double>(max))) {
      return WrongType(key, "an integer in range");
    }
    *out = static_cast<int64_t>(d);
  } else if (v.is_number_integer()) {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(max)) {
      return WrongType(key, "an integer in range");
    }
    *out = v.get<int64_t>();
  } else if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    try {
      size_t used = 0;
      *out = std::stoll(s, &used);
      if (used != s.size()) return WrongType(key, "an integer");
    } catch (const std::exception&) {
      return WrongType(key, "an integer");
    }
  } else {
    return WrongType(key, "an integer");
  }
  if (*out < min || *out > max) return WrongType(key, "an integer in range");
  return BodyStatus::Ok();
}

BodyStatus ReadInt32(const std::string& key, const Json& v, int32_t* out) {
  int64_t wide = 0;
  BodyStatus s = ReadInt(key, v, std::numeric_limits<int32_t>::min(),
                         std::numeric_limits<int32_t>::max(), &wide);
  if (s.ok()) *out = static_cast<int32_t>(wide);
  return s;
}

BodyStatus ReadInt64(const std::string& key, const Json& v, int64_t* out) {
  return ReadInt(key, v, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                 out);
}

// Java's toString of what Jackson builds for a JSON value: a LinkedHashMap "{k=v, k2=v2}", an
// ArrayList "[a, b]", the text of a scalar.
std::string JavaText(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object()) {
    std::string out = "{";
    bool first = true;
    for (const auto& [key, item] : v.items()) {
      if (!first) out += ", ";
      first = false;
      out += key + "=" + JavaText(item);
    }
    return out + "}";
  }
  if (v.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + JavaText(v[i]);
    return out + "]";
  }
  return v.dump();
}

// An attribute value as HBase's any-setter keeps it: whatever JSON value, as Java prints it
// (the gateway creates a table whose schema says "foo":{"a":1}, attribute "{a=1}").
BodyStatus ReadAttributeText(const Json& v, std::string* out) {
  *out = JavaText(v);
  return BodyStatus::Ok();
}

// A scalar as the string an any-setter keeps.
BodyStatus ReadScalarText(const std::string& key, const Json& v, std::string* out) {
  if (v.is_string()) {
    *out = v.get<std::string>();
  } else if (v.is_number() || v.is_boolean()) {
    *out = v.dump();
  } else {
    return WrongType(key, "a string");
  }
  return BodyStatus::Ok();
}

BodyStatus ReadCell(const Json& j, CellModel* cell) {
  if (!j.is_object()) return ObjectExpected("Cell");
  for (const auto& [key, v] : j.items()) {
    BodyStatus s = BodyStatus::Ok();
    if (key == "column") {
      s = ReadBytes(key, v, &cell->column);
    } else if (key == "timestamp") {
      if (!v.is_null()) {
        int64_t ts = 0;
        s = ReadInt64(key, v, &ts);
        cell->timestamp = ts;
      }
    } else if (key == "$") {
      s = ReadBytes(key, v, &cell->value);
    } else {
      s = Unknown(key, "Cell");
    }
    if (!s.ok()) return s;
  }
  return BodyStatus::Ok();
}

BodyStatus ReadRow(const Json& j, RowModel* row) {
  if (!j.is_object()) return ObjectExpected("Row");
  for (const auto& [key, v] : j.items()) {
    if (key == "key") {
      BodyStatus s = ReadBytes(key, v, &row->key);
      if (!s.ok()) return s;
    } else if (key == "Cell") {
      if (v.is_null()) continue;
      if (!v.is_array()) return WrongType(key, "an array");
      for (const Json& c : v) {
        row->cells.emplace_back();
        BodyStatus s = ReadCell(c, &row->cells.back());
        if (!s.ok()) return s;
      }
    } else {
      return Unknown(key, "Row");
    }
  }
  return BodyStatus::Ok();
}

BodyStatus ReadColumnSchema(const Json& j, ColumnSchemaModel* column) {
  if (!j.is_object()) return ObjectExpected("ColumnSchema");
  for (const auto& [key, v] : j.items()) {
    std::string text;
    BodyStatus s = key == "name" ? ReadScalarText(key, v, &text) : ReadAttributeText(v, &text);
    if (!s.ok()) return s;
    if (key == "name") {
      column->name = std::move(text);
    } else {
      column->attrs.emplace_back(key, std::move(text));
    }
  }
  return BodyStatus::Ok();
}

}  // namespace

// ----------------------------------------------------------------------------- decoders

BodyStatus DecodeCellSetJson(std::string_view body, CellSetModel* out, const BodyBounds& bounds) {
  if (NoModel(body)) return NullModel("CellSet");
  Json j;
  BodyStatus s = Parse(body, bounds, &j);
  if (!s.ok()) return s;
  if (j.is_null()) return NullModel("CellSet");
  if (!j.is_object()) return ObjectExpected("CellSet");
  *out = CellSetModel();
  for (const auto& [key, v] : j.items()) {
    if (key != "Row") return Unknown(key, "CellSet");
    if (v.is_null()) continue;
    if (!v.is_array()) return WrongType(key, "an array");
    for (const Json& r : v) {
      out->rows.emplace_back();
      s = ReadRow(r, &out->rows.back());
      if (!s.ok()) return s;
    }
  }
  return BodyStatus::Ok();
}

BodyStatus DecodeTableSchemaJson(std::string_view body, TableSchemaModel* out,
                                 const BodyBounds& bounds) {
  if (NoModel(body)) return NullModel("TableSchema");
  Json j;
  BodyStatus s = Parse(body, bounds, &j);
  if (!s.ok()) return s;
  if (j.is_null()) return NullModel("TableSchema");
  if (!j.is_object()) return ObjectExpected("TableSchema");
  *out = TableSchemaModel();
  for (const auto& [key, v] : j.items()) {
    if (key == "ColumnSchema") {
      if (v.is_null()) continue;
      if (!v.is_array()) return WrongType(key, "an array");
      for (const Json& c : v) {
        out->columns.emplace_back();
        s = ReadColumnSchema(c, &out->columns.back());
        if (!s.ok()) return s;
      }
      continue;
    }
    std::string text;
    s = key == "name" ? ReadScalarText(key, v, &text) : ReadAttributeText(v, &text);
    if (!s.ok()) return s;
    if (key == "name") {
      out->name = std::move(text);
    } else {
      out->attrs.emplace_back(key, std::move(text));
    }
  }
  return BodyStatus::Ok();
}

BodyStatus DecodeNamespacesInstanceJson(std::string_view body, NamespacesInstanceModel* out,
                                        const BodyBounds& bounds) {
  Json j;
  BodyStatus s = Parse(body, bounds, &j);
  if (!s.ok()) return s;
  if (!j.is_object()) return ObjectExpected("NamespaceProperties");
  out->properties.clear();
  for (const auto& [key, v] : j.items()) {
    if (key != "properties") return Unknown(key, "NamespaceProperties");
    if (v.is_null()) continue;
    if (!v.is_object()) return WrongType(key, "an object");
    for (const auto& [name, value] : v.items()) {
      std::string text;
      s = ReadScalarText(name, value, &text);
      if (!s.ok()) return s;
      out->properties.emplace_back(name, std::move(text));
    }
  }
  return BodyStatus::Ok();
}

BodyStatus DecodeScannerJson(std::string_view body, ScannerModel* out, const BodyBounds& bounds) {
  Json j;
  BodyStatus s = Parse(body, bounds, &j);
  if (!s.ok()) return s;
  if (!j.is_object()) return ObjectExpected("Scanner");
  *out = ScannerModel();
  for (const auto& [key, v] : j.items()) {
    if (key == "startRow") {
      s = ReadBytes(key, v, &out->start_row);
    } else if (key == "endRow") {
      s = ReadBytes(key, v, &out->end_row);
    } else if (key == "column") {
      if (v.is_null()) continue;
      if (!v.is_array()) return WrongType(key, "an array");
      for (const Json& c : v) {
        out->columns.emplace_back();
        s = ReadBytes(key, c, &out->columns.back());
        if (!s.ok()) return s;
      }
    } else if (key == "labels") {
      if (v.is_null()) continue;
      if (!v.is_array()) return WrongType(key, "an array");
      for (const Json& l : v) {
        out->labels.emplace_back();
        s = ReadScalarText(key, l, &out->labels.back());
        if (!s.ok()) return s;
      }
    } else if (key == "batch") {
      s = ReadInt32(key, v, &out->batch);
    } else if (key == "caching") {
      s = ReadInt32(key, v, &out->caching);
    } else if (key == "maxVersions") {
      s = ReadInt32(key, v, &out->max_versions);
    } else if (key == "startTime") {
      s = ReadInt64(key, v, &out->start_time);
    } else if (key == "endTime") {
      s = ReadInt64(key, v, &out->end_time);
    } else if (key == "cacheBlocks") {
      // Jackson also reads the strings "true" and "false" as booleans.
      if (v.is_boolean()) {
        out->cache_blocks = v.get<bool>();
      } else if (v.is_string() && (v == "true" || v == "false")) {
        out->cache_blocks = v == "true";
      } else {
        return WrongType(key, "a boolean");
      }
    } else if (key == "filter") {
      if (v.is_null()) continue;
      if (!v.is_string()) return WrongType(key, "a string");
      out->filter = v.get<std::string>();
    } else {
      return Unknown(key, "Scanner");
    }
    if (!s.ok()) return s;
  }
  return BodyStatus::Ok();
}

}  // namespace hbemu::server::rest
