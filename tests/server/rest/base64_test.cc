#include "server/rest/base64.h"

#include <gtest/gtest.h>

namespace hbemu::server::rest {
namespace {

TEST(Base64Test, EncodesWithPaddingAsHBaseWritesKeys) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("r1"), "cjE=");
  EXPECT_EQ(Base64Encode("cf:a"), "Y2Y6YQ==");
  EXPECT_EQ(Base64Encode("value1"), "dmFsdWUx");
  EXPECT_EQ(Base64Encode(std::string("\xff\x00\xfe", 3)), "/wD+");
}

TEST(Base64Test, StrictDecodingRequiresPaddingLikeJackson) {
  std::string out;
  EXPECT_TRUE(Base64DecodeStrict("cjE=", &out));
  EXPECT_EQ(out, "r1");
  EXPECT_TRUE(Base64DecodeStrict("", &out));
  EXPECT_EQ(out, "");
  // The real gateway answers 500 to each of these in a JSON CellSet.
  EXPECT_FALSE(Base64DecodeStrict("cjE", &out));
  EXPECT_FALSE(Base64DecodeStrict("cj E=", &out));
  EXPECT_FALSE(Base64DecodeStrict("c", &out));
  EXPECT_FALSE(Base64DecodeStrict("!!", &out));
  EXPECT_FALSE(Base64DecodeStrict("c===", &out));
}

TEST(Base64Test, StrictDecodingContinuesAfterAPaddedQuadLikeJackson) {
  // The real gateway stores "r1r1" for the value "cjE=cjE=".
  std::string out;
  EXPECT_TRUE(Base64DecodeStrict("cjE=cjE=", &out));
  EXPECT_EQ(out, "r1r1");
}

TEST(Base64Test, LenientDecodingSkipsForeignCharactersLikeJaxb) {
  EXPECT_EQ(Base64DecodeLenient("!!"), "");
  EXPECT_EQ(Base64DecodeLenient(" cj\nE= "), "r1");
  EXPECT_EQ(Base64DecodeLenient("Y2Y6YQ=="), "cf:a");
  EXPECT_EQ(Base64DecodeLenient("cjE"), "r1");
}

}  // namespace
}  // namespace hbemu::server::rest
