#pragma once

#include <string>
#include <string_view>

namespace hbemu::server::rest {

// Standard base64 (RFC 4648 alphabet, '=' padding), as HBase's gateway writes keys, columns and
// values in XML and JSON bodies.
std::string Base64Encode(std::string_view bytes);

// Strict decoding, as Jackson reads a JSON byte[]: quads of the alphabet, padding required,
// no whitespace; a padded quad may be followed by more quads. False on anything else (*out
// unspecified).
bool Base64DecodeStrict(std::string_view text, std::string* out);

// Lenient decoding, as JAXB reads an XML base64Binary: characters outside the alphabet are
// skipped, decoding stops at the first '=', and a trailing partial group is dropped. Never fails
// (HBase stores "!!" as an empty value).
std::string Base64DecodeLenient(std::string_view text);

// java.util.Base64's decoders, as the gateway reads path keys under "Encoding: b64": the URL-safe
// alphabet ('-', '_') when `url_safe`, else the standard one; padding optional but, when present,
// it ends the data; a lone trailing character or any other character is an error.
bool Base64DecodeJava(std::string_view text, bool url_safe, std::string* out);

}  // namespace hbemu::server::rest
