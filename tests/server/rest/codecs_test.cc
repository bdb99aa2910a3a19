#include "server/rest/codecs.h"

#include <random>

#include <gtest/gtest.h>

#include "server/rest/model_json.h"
#include "server/rest/model_protobuf.h"
#include "server/rest/model_text.h"
#include "server/rest/model_xml.h"
#include "tests/server/rest/sample_models.h"

namespace hbemu::server::rest {
namespace {

TEST(CodecsTest, EachRepresentationReachesItsEncoder) {
  const auto schema = sample::SchemaRmT();
  EXPECT_EQ(EncodeBody(Representation::kText, schema), EncodeTableSchemaText(schema));
  EXPECT_EQ(EncodeBody(Representation::kXml, schema), EncodeTableSchemaXml(schema));
  EXPECT_EQ(EncodeBody(Representation::kJson, schema), EncodeTableSchemaJson(schema));
  EXPECT_EQ(EncodeBody(Representation::kProtobuf, schema), EncodeTableSchemaProtobuf(schema));
}

// The gateway answers 406 for these.
TEST(CodecsTest, FormsHBaseLacksAreAbsent) {
  EXPECT_FALSE(EncodeBody(Representation::kText, sample::RowR1()).has_value());
  EXPECT_FALSE(EncodeBody(Representation::kProtobuf, StorageClusterVersionModel{"2.6.1"}).has_value());
  EXPECT_FALSE(EncodeBody(Representation::kOctetStream, sample::Tables()).has_value());
}

// The gateway answers 415 to a CellSet or scanner sent as text/plain or octet-stream.
TEST(CodecsTest, BodiesInOtherMediaTypesAreUnsupported) {
  CellSetModel cells;
  EXPECT_EQ(DecodeBody(Representation::kText, "x", &cells).http_status(), 415);
  ScannerModel scanner;
  EXPECT_EQ(DecodeBody(Representation::kOctetStream, "x", &scanner).http_status(), 415);
  EXPECT_TRUE(DecodeBody(Representation::kJson, "{}", &scanner).ok());
}

// Hostile bodies: every prefix of a valid body, and random bytes, in every decoder, give a
// value or an error status and never throw or crash.
TEST(CodecsTest, TruncatedAndRandomBodiesGiveErrorsNotCrashes) {
  const std::string valid[] = {EncodeCellSetXml(sample::RowR1()), EncodeCellSetJson(sample::RowR1()),
                               EncodeCellSetProtobuf(sample::RowR1()),
                               EncodeTableSchemaXml(sample::SchemaRmT()),
                               EncodeTableSchemaJson(sample::SchemaRmT()),
                               EncodeTableSchemaProtobuf(sample::SchemaRmT())};
  std::mt19937 rng(31);
  std::vector<std::string> bodies;
  for (const std::string& v : valid) {
    for (size_t n = 0; n < v.size(); ++n) bodies.push_back(v.substr(0, n));
    for (int i = 0; i < 50; ++i) {
      std::string mutated = v;
      mutated[rng() % mutated.size()] = static_cast<char>(rng());
      bodies.push_back(mutated);
    }
  }
  for (int i = 0; i < 200; ++i) {
    std::string random(rng() % 64, '\0');
    for (char& c : random) c = static_cast<char>(rng());
    bodies.push_back(random);
  }
  int errors = 0;
  for (const std::string& body : bodies) {
    for (Representation r : {Representation::kXml, Representation::kJson, Representation::kProtobuf}) {
      CellSetModel cells;
      TableSchemaModel schema;
      NamespacesInstanceModel ns;
      ScannerModel scanner;
      for (const BodyStatus& s : {DecodeBody(r, body, &cells), DecodeBody(r, body, &schema),
                                  DecodeBody(r, body, &ns), DecodeBody(r, body, &scanner)}) {
        if (!s.ok()) {
          ++errors;
          EXPECT_TRUE(s.http_status() == 400 || s.http_status() == 500) << s.http_status();
          EXPECT_FALSE(s.message().empty());
        }
      }
    }
  }
  EXPECT_GT(errors, 0);
}

}  // namespace
}  // namespace hbemu::server::rest
