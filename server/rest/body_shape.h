#pragma once

#include <cstdint>
#include <string_view>

#include "server/rest/body_status.h"

namespace hbemu::server::rest {

// Bounds checked on a JSON or XML body BEFORE it is parsed, so a hostile body (nesting a
// million levels deep, millions of tiny elements) is refused in one linear pass, without the
// memory or stack a parse of it would take. Every model HBase exchanges nests fewer than ten
// levels; a JSON filter tree nests two levels per filter, so the scanner's filter string is
// bounded by the filter_depth limit instead (filter_model.h).
struct BodyBounds {
  int64_t max_depth = 64;          // nesting of objects/arrays (JSON) or elements (XML)
  int64_t max_elements = 1 << 20;  // values (JSON) or elements + attributes (XML)
  // The --limit a bound follows, named in the refusal so its reader knows what to raise (null:
  // a fixed bound, given as a number).
  const char* depth_limit = nullptr;
  const char* elements_limit = nullptr;
};

// The bounds in force: max_elements follows the decoded_bytes limit (one element per 64 bytes
// it allows), since each parsed element costs about that much.
BodyBounds CurrentBodyBounds();

// JSON: counts nesting and values outside strings. Ok, or a 500 (Jackson's failure status)
// naming the bound.
BodyStatus CheckJsonShape(std::string_view body, const BodyBounds& bounds);

// XML: counts element nesting, elements and attributes, and refuses a DOCTYPE (HBase's parser
// refuses DTDs: 400). Ok, or a 400 naming what was wrong.
BodyStatus CheckXmlShape(std::string_view body, const BodyBounds& bounds);

}  // namespace hbemu::server::rest
