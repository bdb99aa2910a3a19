// Pins the byte-level building blocks of the key format: big-endian fixed
// integers, the escaped/terminated string encoding and the prefix successor.

#include "storage/coding.h"

#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace hbemu::storage {
namespace {

using testutil::Escape;
using testutil::RandomBytes;

using namespace std::string_literals;

std::string Enc(std::string_view s) {
  std::string out;
  PutEscapedTerminated(&out, s);
  return out;
}

std::string Esc(std::string_view s) {
  std::string out;
  PutEscaped(&out, s);
  return out;
}

using testutil::Sign;
using testutil::UnsignedCompare;

const std::vector<std::string>& SpecialStrings() {
  static const std::vector<std::string> v = {
      ""s,         "\x00"s,         "\x00\x00"s,    "\x00\x00\x00"s, "\xff"s,
      "\xff\xff"s, "\xff\xff\xff"s, "\x00\xff"s,    "\xff\x00"s,     "\x00\x01"s,
      "\x01"s,     "a"s,            "a\x00"s,       "a\x00" "b"s,       "ab"s,
      "a\xff"s,    "\x7f"s,         "\x80"s,        "\x00\xff\x00\x01\xff"s, "\xfe\xff"s,
  };
  return v;
}

// ---- Fixed-width integers

TEST(CodingTest, Fixed64IsBigEndian) {
  std::string s;
  PutFixed64BE(&s, 0x0102030405060708ULL);
  EXPECT_EQ(s, "\x01\x02\x03\x04\x05\x06\x07\x08"s);
  EXPECT_EQ(DecodeFixed64BE(s.data()), 0x0102030405060708ULL);
}

TEST(CodingTest, Fixed32IsBigEndian) {
  std::string s;
  PutFixed32BE(&s, 0xa1b2c3d4u);
  EXPECT_EQ(s, "\xa1\xb2\xc3\xd4"s);
  EXPECT_EQ(DecodeFixed32BE(s.data()), 0xa1b2c3d4u);
}

TEST(CodingTest, FixedIntsRoundTripAtEdges) {
  for (uint64_t v : {0ULL, 1ULL, 0xffULL, 0x100ULL, 0x7fffffffffffffffULL,
                     0x8000000000000000ULL, 0xffffffffffffffffULL}) {
    std::string s;
    PutFixed64BE(&s, v);
    ASSERT_EQ(s.size(), 8u);
    EXPECT_EQ(DecodeFixed64BE(s.data()), v);
  }
  for (uint32_t v : {0u, 1u, 0x80u, 0x7fffffffu, 0x80000000u, 0xffffffffu}) {
    std::string s;
    PutFixed32BE(&s, v);
    ASSERT_EQ(s.size(), 4u);
    EXPECT_EQ(DecodeFixed32BE(s.data()), v);
  }
}

TEST(CodingTest, Fixed64ByteOrderEqualsNumericOrder) {
  auto rng = testutil::MakeRng(64);
  for (int i = 0; i < 2000; ++i) {
    // Mix full-range values with small ones and values differing only in high bytes.
    const uint64_t a = (i % 3 == 0) ? rng() & 0xffff : rng();
    const uint64_t b = (i % 5 == 0) ? a ^ (1ULL << (rng() % 64)) : rng();
    std::string ea, eb;
    PutFixed64BE(&ea, a);
    PutFixed64BE(&eb, b);
    ASSERT_EQ(Sign(UnsignedCompare(ea, eb)), a < b ? -1 : (a > b ? 1 : 0)) << a << " vs " << b;
  }
}

TEST(CodingTest, PutFixedAppendsToExistingContent) {
  std::string s = "x";
  PutFixed32BE(&s, 1);
  PutFixed64BE(&s, 2);
  EXPECT_EQ(s, "x\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x02"s);
}

// ---- Escaping

TEST(CodingTest, EscapeGoldenBytes) {
  EXPECT_EQ(Enc(""), "\x00\x01"s);
  EXPECT_EQ(Enc("ab"), "ab\x00\x01"s);
  EXPECT_EQ(Enc("\x00"s), "\x00\xff\x00\x01"s);
  EXPECT_EQ(Enc("a\x00\x00z"s), "a\x00\xff\x00\xffz\x00\x01"s);
  EXPECT_EQ(Enc("\xff"s), "\xff\x00\x01"s);  // 0xFF data bytes are not escaped
  EXPECT_EQ(Esc("a\x00"s), "a\x00\xff"s);    // esc: no terminator
  EXPECT_EQ(Esc(""), "");
}

TEST(CodingTest, EscapeRoundTripsSpecialStrings) {
  for (const std::string& s : SpecialStrings()) {
    std::string encoded = Enc(s);
    std::string_view in(encoded);
    std::string out = "garbage";
    ASSERT_TRUE(GetEscapedTerminated(&in, &out)) << Escape(s);
    EXPECT_EQ(out, s) << Escape(s);
    EXPECT_TRUE(in.empty()) << Escape(s);
  }
}

TEST(CodingTest, EscapeRoundTripsRandomStringsAndLeavesTheRest) {
  auto rng = testutil::MakeRng(1);
  for (int i = 0; i < 2000; ++i) {
    const std::string a = RandomBytes(&rng, 0, 24);
    const std::string b = RandomBytes(&rng, 0, 24);
    const std::string tail = RandomBytes(&rng, 0, 8);
    std::string encoded = Enc(a) + Enc(b) + tail;
    std::string_view in(encoded);
    std::string da, db;
    ASSERT_TRUE(GetEscapedTerminated(&in, &da)) << Escape(a);
    ASSERT_TRUE(GetEscapedTerminated(&in, &db)) << Escape(b);
    EXPECT_EQ(da, a);
    EXPECT_EQ(db, b);
    EXPECT_EQ(in, tail);
  }
}

TEST(CodingTest, DecodeRejectsMalformedInput) {
  for (const std::string& bad : {""s, "a"s, "ab"s, "a\x00"s, "\x00"s, "a\x00\x02"s, "\x00\x00"s,
                                 "\x00\xff"s, "\x00\xfe\x00\x01"s}) {
    std::string_view in(bad);
    std::string out;
    EXPECT_FALSE(GetEscapedTerminated(&in, &out)) << Escape(bad);
  }
}

TEST(CodingTest, EncodingPreservesUnsignedOrder) {
  auto rng = testutil::MakeRng(2);
  std::vector<std::string> pool = SpecialStrings();
  for (int i = 0; i < 300; ++i) pool.push_back(RandomBytes(&rng, 0, 6));
  // Extensions of existing strings exercise the "proper prefix sorts first" rule.
  for (int i = 0; i < 100; ++i) pool.push_back(pool[rng() % pool.size()] + RandomBytes(&rng, 1, 3));
  for (const auto& a : pool) {
    for (const auto& b : pool) {
      ASSERT_EQ(Sign(UnsignedCompare(a, b)), Sign(UnsignedCompare(Enc(a), Enc(b))))
          << Escape(a) << " vs " << Escape(b);
      // esc() alone preserves order too (used for row-prefix bounds).
      ASSERT_EQ(Sign(UnsignedCompare(a, b)), Sign(UnsignedCompare(Esc(a), Esc(b))))
          << Escape(a) << " vs " << Escape(b);
    }
  }
}

TEST(CodingTest, ZeroByteSortsBelowEveryOtherContinuation) {
  // "a" < "a\x00" < "a\x00\x00" < "a\x01" < "a\xff": the HBase order, unsigned.
  const std::vector<std::string> ascending = {"a"s, "a\x00"s, "a\x00\x00"s, "a\x00\xff"s,
                                              "a\x01"s, "a\x7f"s, "a\x80"s, "a\xff"s, "b"s};
  for (size_t i = 1; i < ascending.size(); ++i) {
    EXPECT_LT(UnsignedCompare(Enc(ascending[i - 1]), Enc(ascending[i])), 0)
        << Escape(ascending[i - 1]) << " vs " << Escape(ascending[i]);
  }
}

TEST(CodingTest, EncodingIsPrefixFree) {
  auto rng = testutil::MakeRng(3);
  std::vector<std::string> pool = SpecialStrings();
  for (int i = 0; i < 300; ++i) pool.push_back(RandomBytes(&rng, 0, 6));
  for (int i = 0; i < 100; ++i) pool.push_back(pool[rng() % pool.size()] + RandomBytes(&rng, 1, 3));
  for (const auto& a : pool) {
    const std::string ea = Enc(a);
    for (const auto& b : pool) {
      if (a == b) continue;
      const std::string eb = Enc(b);
      ASSERT_FALSE(eb.size() >= ea.size() && eb.compare(0, ea.size(), ea) == 0)
          << "enc(" << Escape(a) << ") is a prefix of enc(" << Escape(b) << ")";
    }
  }
}

TEST(CodingTest, EscapeOfConcatenationIsConcatenationOfEscapes) {
  auto rng = testutil::MakeRng(4);
  for (int i = 0; i < 2000; ++i) {
    const std::string a = RandomBytes(&rng, 0, 12);
    const std::string b = RandomBytes(&rng, 0, 12);
    ASSERT_EQ(Esc(a + b), Esc(a) + Esc(b)) << Escape(a) << " + " << Escape(b);
    // And so the rows starting with p are exactly the encodings starting with esc(p).
    ASSERT_EQ(Enc(a + b).compare(0, Esc(a).size(), Esc(a)), 0);
  }
}

TEST(CodingTest, EscapedPrefixMatchesOnlyRowsWithThatPrefix) {
  auto rng = testutil::MakeRng(5);
  for (int i = 0; i < 3000; ++i) {
    const std::string p = RandomBytes(&rng, 0, 3);
    const std::string row = (i % 2 == 0) ? p + RandomBytes(&rng, 0, 3) : RandomBytes(&rng, 0, 5);
    const bool has_prefix = row.compare(0, p.size(), p) == 0 && row.size() >= p.size();
    const std::string er = Enc(row), ep = Esc(p);
    const bool enc_has_prefix = er.size() >= ep.size() && er.compare(0, ep.size(), ep) == 0;
    ASSERT_EQ(has_prefix, enc_has_prefix) << "row " << Escape(row) << " prefix " << Escape(p);
  }
}

// ---- Prefix successor

TEST(CodingTest, PrefixSuccessorIncrementsLastByteNotFirst) {
  // LevelDB's FindShortSuccessor would give "b", which lets "ac" into the range of "ab".
  EXPECT_EQ(PrefixSuccessor("ab"), "ac");
  EXPECT_EQ(PrefixSuccessor("a"), "b");
  EXPECT_EQ(PrefixSuccessor("\x00"s), "\x01"s);
  EXPECT_EQ(PrefixSuccessor("a\x00"s), "a\x01"s);
  EXPECT_EQ(PrefixSuccessor("\x01\xfe"s), "\x01\xff"s);
}

TEST(CodingTest, PrefixSuccessorDropsTrailingFF) {
  EXPECT_EQ(PrefixSuccessor("a\xff"s), "b");
  EXPECT_EQ(PrefixSuccessor("a\xff\xff\xff"s), "b");
  EXPECT_EQ(PrefixSuccessor("a\xfe\xff"s), "a\xff"s);
  EXPECT_EQ(PrefixSuccessor("\xff\x00\xff"s), "\xff\x01"s);
}

TEST(CodingTest, PrefixSuccessorOfAllFFOrEmptyIsUnbounded) {
  EXPECT_EQ(PrefixSuccessor(""), "");
  EXPECT_EQ(PrefixSuccessor("\xff"s), "");
  EXPECT_EQ(PrefixSuccessor("\xff\xff\xff"s), "");
}

TEST(CodingTest, PrefixSuccessorBoundsExactlyTheStringsWithThePrefix) {
  auto rng = testutil::MakeRng(6);
  for (int i = 0; i < 3000; ++i) {
    const std::string p = RandomBytes(&rng, 1, 4);
    const std::string succ = PrefixSuccessor(p);
    const std::string s = (i % 2 == 0) ? p + RandomBytes(&rng, 0, 4) : RandomBytes(&rng, 0, 6);
    const bool has_prefix = s.size() >= p.size() && s.compare(0, p.size(), p) == 0;
    const bool in_range =
        UnsignedCompare(s, p) >= 0 && (succ.empty() || UnsignedCompare(s, succ) < 0);
    ASSERT_EQ(has_prefix, in_range) << "s=" << Escape(s) << " p=" << Escape(p)
                                    << " succ=" << Escape(succ);
  }
}

}  // namespace
}  // namespace hbemu::storage
