#include "shell/descriptors.h"

#include <cstdio>
#include <set>

#include "shell/bytes_text.h"
#include "shell/shell.h"

namespace hbemu::shell {

namespace t2 = hbemu::thrift2;

t2::TTableDescriptor ForWriting(t2::TTableDescriptor desc) {
  if (desc.__isset.durability && desc.durability == t2::TDurability::USE_DEFAULT) {
    desc.__isset.durability = false;
  }
  return desc;
}

t2::TTableName TableNameOf(const std::string& table) {
  t2::TTableName name;
  size_t colon = table.find(':');
  if (colon == std::string::npos) {
    name.qualifier = table;
  } else {
    name.__set_ns(table.substr(0, colon));
    name.qualifier = table.substr(colon + 1);
  }
  return name;
}

namespace {

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

bool BoolOf(const Value& v) {
  if (v.kind == Value::Kind::kBool) return v.boolean;
  return Upper(v.ToS()) == "TRUE";
}

int64_t TtlOf(const Value& v) {
  if (v.IsString() && Upper(v.text) == "FOREVER") return 0x7fffffff;
  return IntOf(v, "TTL");
}

}  // namespace

void ApplyFamilySpec(const Value& spec, t2::TColumnFamilyDescriptor* f,
                     std::vector<std::string>* ignored) {
  for (const auto& [k, v] : spec.pairs) {
    std::string key = k.ToS();
    if (key == "NAME") {
      f->name = v.ToS();
    } else if (key == "VERSIONS") {
      f->__set_maxVersions(static_cast<int32_t>(IntOf(v, "VERSIONS")));
    } else if (key == "MIN_VERSIONS") {
      f->__set_minVersions(static_cast<int32_t>(IntOf(v, "MIN_VERSIONS")));
    } else if (key == "TTL") {
      f->__set_timeToLive(static_cast<int32_t>(TtlOf(v)));
    } else if (key == "IN_MEMORY") {
      f->__set_inMemory(BoolOf(v));
    } else if (key == "BLOCKCACHE") {
      f->__set_blockCacheEnabled(BoolOf(v));
    } else if (key == "BLOCKSIZE") {
      f->__set_blockSize(static_cast<int32_t>(IntOf(v, "BLOCKSIZE")));
    } else if (key == "REPLICATION_SCOPE") {
      f->__set_scope(static_cast<int32_t>(IntOf(v, "REPLICATION_SCOPE")));
    } else if (key == "KEEP_DELETED_CELLS") {
      std::string s = v.kind == Value::Kind::kBool ? (v.boolean ? "TRUE" : "FALSE") : Upper(v.ToS());
      if (s == "TRUE") {
        f->__set_keepDeletedCells(t2::TKeepDeletedCells::TRUE);
      } else if (s == "FALSE") {
        f->__set_keepDeletedCells(t2::TKeepDeletedCells::FALSE);
      } else if (s == "TTL") {
        f->__set_keepDeletedCells(t2::TKeepDeletedCells::TTL);
      } else {
        throw ShellError("No enum constant org.apache.hadoop.hbase.KeepDeletedCells." + s);
      }
    } else if (key == "BLOOMFILTER") {
      std::string s = Upper(v.ToS());
      static const std::pair<const char*, t2::TBloomFilterType::type> kTypes[] = {
          {"NONE", t2::TBloomFilterType::NONE},
          {"ROW", t2::TBloomFilterType::ROW},
          {"ROWCOL", t2::TBloomFilterType::ROWCOL},
          {"ROWPREFIX_FIXED_LENGTH", t2::TBloomFilterType::ROWPREFIX_FIXED_LENGTH}};
      bool found = false;
      for (const auto& [n, t] : kTypes) {
        if (s == n) {
          f->__set_bloomnFilterType(t);
          found = true;
        }
      }
      if (!found) throw ShellError(Upper(v.ToS()) + " is not a valid BLOOMFILTER");
    } else if (key == "COMPRESSION") {
      std::string s = Upper(v.ToS());
      static const std::pair<const char*, t2::TCompressionAlgorithm::type> kAlgos[] = {
          {"NONE", t2::TCompressionAlgorithm::NONE}, {"GZ", t2::TCompressionAlgorithm::GZ},
          {"LZO", t2::TCompressionAlgorithm::LZO},   {"SNAPPY", t2::TCompressionAlgorithm::SNAPPY},
          {"LZ4", t2::TCompressionAlgorithm::LZ4},   {"BZIP2", t2::TCompressionAlgorithm::BZIP2},
          {"ZSTD", t2::TCompressionAlgorithm::ZSTD}};
      bool found = false;
      for (const auto& [n, t] : kAlgos) {
        if (s == n) {
          f->__set_compressionType(t);
          found = true;
        }
      }
      if (!found) throw ShellError("Compression " + s + " is not supported");
    } else if (key == "DATA_BLOCK_ENCODING") {
      std::string s = Upper(v.ToS());
      static const std::pair<const char*, t2::TDataBlockEncoding::type> kEncodings[] = {
          {"NONE", t2::TDataBlockEncoding::NONE},
          {"PREFIX", t2::TDataBlockEncoding::PREFIX},
          {"DIFF", t2::TDataBlockEncoding::DIFF},
          {"FAST_DIFF", t2::TDataBlockEncoding::FAST_DIFF},
          {"ROW_INDEX_V1", t2::TDataBlockEncoding::ROW_INDEX_V1}};
      bool found = false;
      for (const auto& [n, t] : kEncodings) {
        if (s == n) {
          f->__set_dataBlockEncoding(t);
          found = true;
        }
      }
      if (!found) throw ShellError("No enum constant DataBlockEncoding." + s);
    } else if (key == "METADATA" || key == "CONFIGURATION") {
      // HBase's shell sets each pair with setValue / setConfiguration.
      if (!v.IsHash()) throw ShellError(key + " must be a Hash type");
      for (const auto& [mk, mv] : v.pairs) {
        if (key == "METADATA") {
          f->attributes[mk.ToS()] = mv.ToS();
          f->__isset.attributes = true;
        } else {
          f->configuration[mk.ToS()] = mv.ToS();
          f->__isset.configuration = true;
        }
      }
    } else if (key == "METHOD") {
      continue;  // handled by alter
    } else {
      ignored->push_back(key);
    }
  }
}

const std::set<std::string>& FamilySettingKeys() {
  static const std::set<std::string> kKeys = {
      "BLOCKCACHE", "BLOCKSIZE", "BLOOMFILTER", "CACHE_BLOOMS_ON_WRITE", "CACHE_DATA_ON_WRITE",
      "CACHE_INDEX_ON_WRITE", "COMPRESSION", "COMPRESSION_COMPACT", "COMPRESSION_COMPACT_MAJOR",
      "COMPRESSION_COMPACT_MINOR", "COMPRESS_TAGS", "DATA_BLOCK_ENCODING", "DFS_REPLICATION",
      "ENCRYPTION", "ENCRYPTION_KEY", "EVICT_BLOCKS_ON_CLOSE", "INDEX_BLOCK_ENCODING", "IN_MEMORY",
      "IN_MEMORY_COMPACTION", "IS_MOB", "KEEP_DELETED_CELLS", "MIN_VERSIONS",
      "MOB_COMPACT_PARTITION_POLICY", "MOB_THRESHOLD", "NEW_VERSION_BEHAVIOR",
      "PREFETCH_BLOCKS_ON_OPEN", "REPLICATION_SCOPE", "STORAGE_POLICY", "TTL", "VERSIONS"};
  return kKeys;
}

std::string DescribeFamily(const t2::TColumnFamilyDescriptor& f) {
  auto q = [](const std::string& s) { return "'" + s + "'"; };
  std::string bloom = "ROW";
  if (f.__isset.bloomnFilterType) {
    switch (f.bloomnFilterType) {
      case t2::TBloomFilterType::NONE: bloom = "NONE"; break;
      case t2::TBloomFilterType::ROW: bloom = "ROW"; break;
      case t2::TBloomFilterType::ROWCOL: bloom = "ROWCOL"; break;
      case t2::TBloomFilterType::ROWPREFIX_FIXED_LENGTH: bloom = "ROWPREFIX_FIXED_LENGTH"; break;
    }
  }
  std::string compression = "NONE";
  if (f.__isset.compressionType) {
    auto it = t2::_TCompressionAlgorithm_VALUES_TO_NAMES.find(f.compressionType);
    if (it != t2::_TCompressionAlgorithm_VALUES_TO_NAMES.end()) compression = it->second;
  }
  std::string encoding = "NONE";
  if (f.__isset.dataBlockEncoding) {
    auto it = t2::_TDataBlockEncoding_VALUES_TO_NAMES.find(f.dataBlockEncoding);
    if (it != t2::_TDataBlockEncoding_VALUES_TO_NAMES.end()) encoding = it->second;
  }
  std::string keep = "FALSE";
  if (f.__isset.keepDeletedCells) {
    if (f.keepDeletedCells == t2::TKeepDeletedCells::TRUE) keep = "TRUE";
    if (f.keepDeletedCells == t2::TKeepDeletedCells::TTL) keep = "TTL";
  }
  int64_t block = f.__isset.blockSize && f.blockSize > 0 ? f.blockSize : 65536;
  char block_text[64];
  if (block % 1024 == 0) {
    std::snprintf(block_text, sizeof(block_text), "%lld B (%lldKB)",
                  static_cast<long long>(block), static_cast<long long>(block / 1024));
  } else {
    std::snprintf(block_text, sizeof(block_text), "%lld", static_cast<long long>(block));
  }
  std::string out = "{NAME => " + q(ToStringBinary(f.name));
  out += ", INDEX_BLOCK_ENCODING => 'NONE'";
  out += ", VERSIONS => " + q(std::to_string(f.__isset.maxVersions ? f.maxVersions : 1));
  out += ", KEEP_DELETED_CELLS => " + q(keep);
  out += ", DATA_BLOCK_ENCODING => " + q(encoding);
  out += ", TTL => " + q(FormatTtl(f.__isset.timeToLive ? f.timeToLive : 0x7fffffff));
  out += ", MIN_VERSIONS => " + q(std::to_string(f.__isset.minVersions ? f.minVersions : 0));
  out += ", REPLICATION_SCOPE => " + q(std::to_string(f.__isset.scope ? f.scope : 0));
  out += ", BLOOMFILTER => " + q(bloom);
  out += std::string(", IN_MEMORY => ") + q(f.__isset.inMemory && f.inMemory ? "true" : "false");
  out += ", COMPRESSION => " + q(compression);
  out += std::string(", BLOCKCACHE => ") +
         q(!f.__isset.blockCacheEnabled || f.blockCacheEnabled ? "true" : "false");
  out += ", BLOCKSIZE => " + q(block_text);
  // Then, as HBase prints them, the values that are no setting of its own, and the configuration.
  std::string metadata;
  for (const auto& [k, v] : f.attributes) {
    if (FamilySettingKeys().count(k)) continue;
    metadata += (metadata.empty() ? "" : ", ") + q(k) + " => " + q(ToStringBinary(v));
  }
  if (!metadata.empty()) out += ", METADATA => {" + metadata + "}";
  std::string configuration;
  for (const auto& [k, v] : f.configuration) {
    configuration += (configuration.empty() ? "" : ", ") + q(k) + " => " + q(v);
  }
  if (!configuration.empty()) out += ", CONFIGURATION => {" + configuration + "}";
  return out + "}";
}

std::vector<std::string> ComputeSplits(const std::string& algorithm, int64_t regions) {
  if (regions < 2) throw ShellError("Number of regions must be at least 2");
  std::vector<std::string> splits;
  if (algorithm == "HexStringSplit") {
    // Evenly spaced 8-digit lowercase hex keys over 00000000..FFFFFFFF, both ends included.
    const uint64_t range = 0x100000000ULL;
    const uint64_t step = range / static_cast<uint64_t>(regions);
    for (int64_t i = 1; i < regions; ++i) {
      char buf[17];
      std::snprintf(buf, sizeof(buf), "%08llx", static_cast<unsigned long long>(step * i));
      splits.push_back(buf);
    }
  } else if (algorithm == "UniformSplit") {
    // Evenly spaced 8-byte keys over the whole 64-bit space, both ends included.
    const unsigned __int128 step = (static_cast<unsigned __int128>(1) << 64) / regions;
    for (int64_t i = 1; i < regions; ++i) {
      uint64_t v = static_cast<uint64_t>(step * i);
      std::string key(8, '\0');
      for (int b = 7; b >= 0; --b) {
        key[b] = static_cast<char>(v & 0xff);
        v >>= 8;
      }
      splits.push_back(key);
    }
  } else {
    throw ShellError("Unsupported SPLITALGO " + algorithm +
                     " (HexStringSplit and UniformSplit are supported)");
  }
  return splits;
}

}  // namespace hbemu::shell
