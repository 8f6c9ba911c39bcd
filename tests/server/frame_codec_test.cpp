#include "server/src/network/frame_codec.hpp"

#include <gtest/gtest.h>

namespace galloper::server {
namespace {

v1::Envelope hello(std::uint64_t id) {
  v1::Envelope e;
  e.set_correlation_id(id);
  e.mutable_hello()->mutable_protocol()->set_major(1);
  e.mutable_hello()->set_client_name("t");
  return e;
}

TEST(FrameCodec, BinaryRoundTrip) {
  auto frame = encode_frame(hello(5), Encoding::kBinary);
  auto d = decode_frame(*frame, Encoding::kBinary);
  ASSERT_TRUE(d.envelope);
  EXPECT_EQ(d.envelope->correlation_id(), 5u);
  EXPECT_EQ(d.envelope->hello().client_name(), "t");
}

TEST(FrameCodec, JsonRoundTripUsesProtobufJsonMapping) {
  auto frame = encode_frame(hello(6), Encoding::kJson);
  EXPECT_NE(frame->find("\"correlationId\":\"6\""), std::string::npos) << *frame;
  EXPECT_NE(frame->find("\"clientName\":\"t\""), std::string::npos) << *frame;
  auto d = decode_frame(*frame, Encoding::kJson);
  ASSERT_TRUE(d.envelope);
  EXPECT_EQ(d.envelope->hello().protocol().major(), 1u);
}

TEST(FrameCodec, GarbageBytesAreMalformed) {
  auto d = decode_frame(std::string("\xff\xff\xff", 3), Encoding::kBinary);
  ASSERT_TRUE(d.failure);
  EXPECT_EQ(d.failure->code, v1::ERROR_CODE_MALFORMED_FRAME);
}

TEST(FrameCodec, NotJsonIsMalformed) {
  auto d = decode_frame("hello?", Encoding::kJson);
  ASSERT_TRUE(d.failure);
  EXPECT_EQ(d.failure->code, v1::ERROR_CODE_MALFORMED_FRAME);
}

TEST(FrameCodec, UnknownJsonMemberIsUnknownMessageWithItsCorrelationId) {
  auto d = decode_frame(R"({"correlationId":"3","fireCannons":{}})", Encoding::kJson);
  ASSERT_TRUE(d.failure);
  EXPECT_EQ(d.failure->code, v1::ERROR_CODE_UNKNOWN_MESSAGE);
  EXPECT_EQ(d.correlation_id, 3u);
}

TEST(FrameCodec, EmptyEnvelopeIsUnknownMessage) {
  v1::Envelope e;
  e.set_correlation_id(11);
  auto d = decode_frame(e.SerializeAsString(), Encoding::kBinary);
  ASSERT_TRUE(d.failure);
  EXPECT_EQ(d.failure->code, v1::ERROR_CODE_UNKNOWN_MESSAGE);
  EXPECT_EQ(d.correlation_id, 11u);
}

TEST(FrameCodec, ErrorsCarryCodeAndMessage) {
  auto e = make_error(9, v1::ERROR_CODE_BAD_TOKEN, "no");
  EXPECT_EQ(e.correlation_id(), 9u);
  EXPECT_EQ(e.error().code(), v1::ERROR_CODE_BAD_TOKEN);
  EXPECT_EQ(e.error().message(), "no");
}

}  // namespace
}  // namespace galloper::server
