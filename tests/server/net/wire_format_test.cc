#include "server/net/wire_format.h"

#include <string>

#include <gtest/gtest.h>

namespace hbemu::server {
namespace {

WireDetection Detect(const std::string& bytes, const WireForcing& forcing = {}) {
  return DetectWireFormat(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), forcing);
}

void ExpectDecided(const std::string& bytes, WireTransport transport, WireProtocol protocol,
                   const WireForcing& forcing = {}) {
  WireDetection d = Detect(bytes, forcing);
  ASSERT_EQ(d.status, WireDetection::Status::kDecided) << d.error;
  EXPECT_EQ(d.format.transport, transport) << WireFormatName(d.format);
  EXPECT_EQ(d.format.protocol, protocol) << WireFormatName(d.format);
}

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

TEST(WireFormatTest, StrictBinaryUnframedIsBufferedBinary) {
  ExpectDecided(Bytes({0x80, 0x01, 0x00, 0x01}), WireTransport::kBuffered, WireProtocol::kBinary);
}

TEST(WireFormatTest, CompactMarkerIsBufferedCompact) {
  ExpectDecided(Bytes({0x82, 0x21}), WireTransport::kBuffered, WireProtocol::kCompact);
}

TEST(WireFormatTest, FrameLengthThenMarkerIsFramed) {
  ExpectDecided(Bytes({0x00, 0x00, 0x00, 0x20, 0x80, 0x01}), WireTransport::kFramed,
                WireProtocol::kBinary);
  ExpectDecided(Bytes({0x00, 0x00, 0x01, 0x00, 0x82, 0x21}), WireTransport::kFramed,
                WireProtocol::kCompact);
}

TEST(WireFormatTest, FramedNonStrictBinaryStartsWithTwoLengths) {
  // Frame length, then the method name's length (0x00 ...).
  ExpectDecided(Bytes({0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x06}), WireTransport::kFramed,
                WireProtocol::kBinary);
}

TEST(WireFormatTest, NonStrictBinaryUnframedStartsWithNameLengthThenName) {
  ExpectDecided(Bytes({0x00, 0x00, 0x00, 0x06}) + "getRow", WireTransport::kBuffered,
                WireProtocol::kBinary);
}

TEST(WireFormatTest, HttpMethodIsHttp) {
  ExpectDecided("POST / HTTP/1.1\r\n", WireTransport::kHttp, WireProtocol::kBinary);
  ExpectDecided("GET", WireTransport::kHttp, WireProtocol::kBinary);
}

TEST(WireFormatTest, WaitsForTheFifthByteWhenLengthsAreAmbiguous) {
  EXPECT_EQ(Detect("").status, WireDetection::Status::kNeedMore);
  EXPECT_EQ(Detect(Bytes({0x00, 0x00, 0x00, 0x20})).status, WireDetection::Status::kNeedMore);
}

TEST(WireFormatTest, BytesNoClientSendsAreUnknown) {
  WireDetection d = Detect(Bytes({0xff, 0xfe, 0x00}));
  EXPECT_EQ(d.status, WireDetection::Status::kUnknown);
  EXPECT_NE(d.error.find("ff fe 00"), std::string::npos) << d.error;
  EXPECT_EQ(Detect(Bytes({0x00, 0x00, 0x00, 0x10, 0x07})).status,
            WireDetection::Status::kUnknown);
}

TEST(WireFormatTest, TlsHandshakeIsNamedInTheError) {
  WireDetection d = Detect(Bytes({0x16, 0x03, 0x01, 0x02, 0x00}));
  EXPECT_EQ(d.status, WireDetection::Status::kUnknown);
  EXPECT_NE(d.error.find("TLS"), std::string::npos) << d.error;
}

TEST(WireFormatTest, ForcedTransportIsNeverContradicted) {
  WireForcing framed;
  framed.transport = WireTransport::kFramed;
  // Unframed bytes on a framed-only server are still read as a frame (and then refused).
  ExpectDecided(Bytes({0x80, 0x01, 0x00, 0x01, 0x00}), WireTransport::kFramed,
                WireProtocol::kBinary, framed);
  WireForcing buffered;
  buffered.transport = WireTransport::kBuffered;
  ExpectDecided(Bytes({0x00, 0x00, 0x00, 0x20, 0x80}), WireTransport::kBuffered,
                WireProtocol::kBinary, buffered);
  WireForcing http;
  http.transport = WireTransport::kHttp;
  ExpectDecided(Bytes({0x80, 0x01}), WireTransport::kHttp, WireProtocol::kBinary, http);
}

TEST(WireFormatTest, ForcedProtocolOverridesTheMarker) {
  WireForcing compact;
  compact.protocol = WireProtocol::kCompact;
  ExpectDecided(Bytes({0x80, 0x01, 0x00, 0x01}), WireTransport::kBuffered,
                WireProtocol::kCompact, compact);
  ExpectDecided(Bytes({0x00, 0x00, 0x00, 0x20, 0x80}), WireTransport::kFramed,
                WireProtocol::kCompact, compact);
}

TEST(WireFormatTest, BodyProtocolFollowsItsFirstByte) {
  EXPECT_EQ(DetectBodyProtocol(0x82), WireProtocol::kCompact);
  EXPECT_EQ(DetectBodyProtocol(0x80), WireProtocol::kBinary);
  EXPECT_EQ(DetectBodyProtocol(0x00), WireProtocol::kBinary);
}

}  // namespace
}  // namespace hbemu::server
