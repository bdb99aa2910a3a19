#include "server/admin/known_methods.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace hbemu::server::admin {
namespace {

// The method names a Thrift IDL file's service declares: each "name(" at the top level of the
// service block, comments removed.
std::set<std::string> IdlMethods(const std::string& file) {
  std::ifstream in(std::string(HBEMU_SOURCE_DIR) + "/thrift/" + file);
  EXPECT_TRUE(in.good()) << file;
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = std::regex_replace(buffer.str(), std::regex(R"(/\*[\s\S]*?\*/)"), "");
  text = std::regex_replace(text, std::regex(R"((//|#)[^\n]*)"), "");
  const size_t open = text.find('{', text.find("\nservice "));
  const size_t close = text.rfind('}');
  const std::string body = text.substr(open + 1, close - open - 1);
  std::set<std::string> names;
  int depth = 0;
  const std::regex token(R"((\w+)\s*\(|\(|\))");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), token);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    if (m[1].matched) {
      if (depth == 0 && m[1] != "throws") names.insert(m[1]);
      ++depth;
    } else if (m[0] == "(") {
      ++depth;
    } else {
      --depth;
    }
  }
  return names;
}

TEST(KnownMethodsTest, EveryMethodOfBothIdlsIsKnownToItsServiceOnly) {
  const std::set<std::string> thrift1 = IdlMethods("Hbase.thrift");
  const std::set<std::string> thrift2 = IdlMethods("THBaseService.thrift");
  EXPECT_EQ(thrift1.size(), 49u);
  EXPECT_EQ(thrift2.size(), 50u);
  for (const std::string& name : thrift1) EXPECT_TRUE(IsKnownMethod("thrift1", name)) << name;
  for (const std::string& name : thrift2) EXPECT_TRUE(IsKnownMethod("thrift2", name)) << name;
  for (const std::string& name : thrift1) {
    EXPECT_EQ(IsKnownMethod("thrift2", name), thrift2.count(name) == 1) << name;
  }
}

TEST(KnownMethodsTest, TheListOfAServiceIsItsIdlsMethods) {
  for (const char* service : {"thrift1", "thrift2"}) {
    const std::set<std::string> idl =
        IdlMethods(std::string(service) == "thrift1" ? "Hbase.thrift" : "THBaseService.thrift");
    const std::vector<std::string_view> listed = KnownMethods(service);
    EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()), idl) << service;
  }
  EXPECT_TRUE(KnownMethods("thrift3").empty());
}

TEST(KnownMethodsTest, AnythingElseIsUnknown) {
  EXPECT_FALSE(IsKnownMethod("thrift1", "madeUp"));
  EXPECT_FALSE(IsKnownMethod("thrift1", ""));
  EXPECT_FALSE(IsKnownMethod("thrift1", "getRow "));
  EXPECT_FALSE(IsKnownMethod("thrift1", std::string("getRow\0", 7)));
  EXPECT_FALSE(IsKnownMethod("thrift1", "\xff\xfe"));
  EXPECT_FALSE(IsKnownMethod("thrift3", "getRow"));
}

}  // namespace
}  // namespace hbemu::server::admin
