#include "server/thrift2/descriptors.h"

#include <map>
#include <utility>

#include "server/gateway/family_attributes.h"
#include "server/thrift2/convert.h"
#include "storage/schema_names.h"

namespace hbemu::server::thrift2_convert {
namespace {

using storage::Status;

const char* CompressionName(thrift2::TCompressionAlgorithm::type c) {
  switch (c) {
    case thrift2::TCompressionAlgorithm::LZO: return "LZO";
    case thrift2::TCompressionAlgorithm::GZ: return "GZ";
    case thrift2::TCompressionAlgorithm::NONE: return "NONE";
    case thrift2::TCompressionAlgorithm::SNAPPY: return "SNAPPY";
    case thrift2::TCompressionAlgorithm::LZ4: return "LZ4";
    case thrift2::TCompressionAlgorithm::BZIP2: return "BZIP2";
    case thrift2::TCompressionAlgorithm::ZSTD: return "ZSTD";
  }
  return "NONE";
}

thrift2::TCompressionAlgorithm::type CompressionEnum(const std::string& name) {
  for (auto c : {thrift2::TCompressionAlgorithm::LZO, thrift2::TCompressionAlgorithm::GZ,
                 thrift2::TCompressionAlgorithm::SNAPPY, thrift2::TCompressionAlgorithm::LZ4,
                 thrift2::TCompressionAlgorithm::BZIP2, thrift2::TCompressionAlgorithm::ZSTD}) {
    if (name == CompressionName(c)) return c;
  }
  // Codecs the Thrift2 enum cannot name (BROTLI, LZMA) are reported as NONE, as HBase does.
  return thrift2::TCompressionAlgorithm::NONE;
}

const char* BloomName(thrift2::TBloomFilterType::type b) {
  switch (b) {
    case thrift2::TBloomFilterType::NONE: return "NONE";
    case thrift2::TBloomFilterType::ROW: return "ROW";
    case thrift2::TBloomFilterType::ROWCOL: return "ROWCOL";
    case thrift2::TBloomFilterType::ROWPREFIX_FIXED_LENGTH: return "ROWPREFIX_FIXED_LENGTH";
  }
  return "ROW";
}

thrift2::TBloomFilterType::type BloomEnum(const std::string& name) {
  for (auto b : {thrift2::TBloomFilterType::NONE, thrift2::TBloomFilterType::ROWCOL,
                 thrift2::TBloomFilterType::ROWPREFIX_FIXED_LENGTH}) {
    if (name == BloomName(b)) return b;
  }
  return thrift2::TBloomFilterType::ROW;
}

const char* EncodingName(thrift2::TDataBlockEncoding::type e) {
  switch (e) {
    case thrift2::TDataBlockEncoding::NONE: return "NONE";
    case thrift2::TDataBlockEncoding::PREFIX: return "PREFIX";
    case thrift2::TDataBlockEncoding::DIFF: return "DIFF";
    case thrift2::TDataBlockEncoding::FAST_DIFF: return "FAST_DIFF";
    case thrift2::TDataBlockEncoding::ROW_INDEX_V1: return "ROW_INDEX_V1";
  }
  return "NONE";
}

thrift2::TDataBlockEncoding::type EncodingEnum(const std::string& name) {
  for (auto e : {thrift2::TDataBlockEncoding::PREFIX, thrift2::TDataBlockEncoding::DIFF,
                 thrift2::TDataBlockEncoding::FAST_DIFF,
                 thrift2::TDataBlockEncoding::ROW_INDEX_V1}) {
    if (name == EncodingName(e)) return e;
  }
  return thrift2::TDataBlockEncoding::NONE;
}

}  // namespace

Status ToFamilyDescriptor(const thrift2::TColumnFamilyDescriptor& in,
                          storage::FamilyDescriptor* out) {
  out->name = in.name;
  for (const auto& [key, value] : in.attributes) {
    bool known = false;
    HBEMU_RETURN_IF_ERROR(ApplyFamilyAttribute(key, value, out, &known));
    if (!known) out->values[key] = value;
  }
  out->configuration = in.configuration;
  if (in.__isset.maxVersions) {
    // ColumnFamilyDescriptorBuilder.setMaxVersions: an IllegalArgumentException in HBase.
    if (in.maxVersions <= 0) {
      return Status::InvalidArgument("Maximum versions must be positive");
    }
    out->max_versions = in.maxVersions;
  }
  if (in.__isset.minVersions) out->min_versions = in.minVersions;
  if (in.__isset.timeToLive) out->ttl_seconds = in.timeToLive;
  if (in.__isset.keepDeletedCells) {
    out->keep_deleted_cells = static_cast<storage::KeepDeletedCells>(in.keepDeletedCells);
  }
  if (in.__isset.inMemory) out->in_memory = in.inMemory;
  if (in.__isset.blockCacheEnabled) out->block_cache_enabled = in.blockCacheEnabled;
  if (in.__isset.compressionType) out->compression = CompressionName(in.compressionType);
  if (in.__isset.bloomnFilterType) out->bloom_filter = BloomName(in.bloomnFilterType);
  if (in.__isset.blockSize) out->block_size = in.blockSize;
  if (in.__isset.dataBlockEncoding) {
    out->data_block_encoding = EncodingName(in.dataBlockEncoding);
  }
  if (in.__isset.scope) out->scope = in.scope;
  if (in.__isset.dfsReplication) out->dfs_replication = in.dfsReplication;
  if (in.__isset.cacheBloomsOnWrite) out->cache_blooms_on_write = in.cacheBloomsOnWrite;
  if (in.__isset.cacheDataOnWrite) out->cache_data_on_write = in.cacheDataOnWrite;
  if (in.__isset.cacheIndexesOnWrite) out->cache_indexes_on_write = in.cacheIndexesOnWrite;
  if (in.__isset.compressTags) out->compress_tags = in.compressTags;
  if (in.__isset.evictBlocksOnClose) out->evict_blocks_on_close = in.evictBlocksOnClose;
  return Status::OK();
}

thrift2::TColumnFamilyDescriptor ToTColumnFamilyDescriptor(const storage::FamilyDescriptor& in) {
  thrift2::TColumnFamilyDescriptor out;
  out.__set_name(in.name);
  std::map<std::string, std::string> attributes;
  for (auto& [key, value] : FamilyAttributes(in)) attributes[key] = std::move(value);
  out.__set_attributes(std::move(attributes));
  if (!in.configuration.empty()) out.__set_configuration(in.configuration);
  out.__set_blockSize(in.block_size);
  out.__set_bloomnFilterType(BloomEnum(in.bloom_filter));
  out.__set_compressionType(CompressionEnum(in.compression));
  out.__set_dfsReplication(static_cast<int16_t>(in.dfs_replication));
  out.__set_dataBlockEncoding(EncodingEnum(in.data_block_encoding));
  out.__set_keepDeletedCells(
      static_cast<thrift2::TKeepDeletedCells::type>(in.keep_deleted_cells));
  out.__set_maxVersions(in.max_versions);
  out.__set_minVersions(in.min_versions);
  out.__set_scope(in.scope);
  out.__set_timeToLive(in.ttl_seconds);
  out.__set_blockCacheEnabled(in.block_cache_enabled);
  out.__set_cacheBloomsOnWrite(in.cache_blooms_on_write);
  out.__set_cacheDataOnWrite(in.cache_data_on_write);
  out.__set_cacheIndexesOnWrite(in.cache_indexes_on_write);
  out.__set_compressTags(in.compress_tags);
  out.__set_evictBlocksOnClose(in.evict_blocks_on_close);
  out.__set_inMemory(in.in_memory);
  return out;
}

Status ToTableSpec(const thrift2::TTableDescriptor& in, storage::TableDescriptor* out) {
  out->families.resize(in.columns.size());
  for (size_t i = 0; i < in.columns.size(); ++i) {
    HBEMU_RETURN_IF_ERROR(ToFamilyDescriptor(in.columns[i], &out->families[i]));
  }
  out->values.clear();
  for (const auto& [key, value] : in.attributes) {
    if (key == "IS_META") continue;  // HBase derives it from the name
    out->values[key] = value;
  }
  out->durability = in.__isset.durability ? static_cast<storage::Durability>(in.durability)
                                          : storage::Durability::kUseDefault;
  // A DURABILITY value is what HBase's getDurability reads (the shell's `create ..., DURABILITY
  // => 'ASYNC_WAL'` sets only that), so without the field it sets the durability.
  if (auto it = in.attributes.find("DURABILITY"); !in.__isset.durability && it != in.attributes.end()) {
    for (auto d : {storage::Durability::kSkipWal, storage::Durability::kAsyncWal,
                   storage::Durability::kSyncWal, storage::Durability::kFsyncWal}) {
      if (it->second == storage::DurabilityName(d)) out->durability = d;
    }
  }
  // HBase's setDurability records the value even for USE_DEFAULT, which then shows among the
  // attributes; only a descriptor that never set it has none.
  if (in.__isset.durability && out->durability == storage::Durability::kUseDefault) {
    out->values["DURABILITY"] = storage::DurabilityName(out->durability);
  }
  return Status::OK();
}

thrift2::TTableDescriptor ToTTableDescriptor(const storage::TableDescriptor& table) {
  thrift2::TTableDescriptor out;
  out.__set_tableName(ToTTableName(table.name));
  out.__isset.columns = true;
  for (const auto& family : table.families) {
    out.columns.push_back(ToTColumnFamilyDescriptor(family));
  }
  std::map<std::string, std::string> attributes = table.values;
  attributes.emplace("IS_META", "false");
  if (table.durability != storage::Durability::kUseDefault) {
    attributes["DURABILITY"] = storage::DurabilityName(table.durability);
  }
  out.__set_attributes(std::move(attributes));
  out.__set_durability(static_cast<thrift2::TDurability::type>(table.durability));
  return out;
}

thrift2::TNamespaceDescriptor ToTNamespaceDescriptor(const storage::NamespaceDescriptor& ns) {
  thrift2::TNamespaceDescriptor out;
  out.name = ns.name;
  if (!ns.configuration.empty()) out.__set_configuration(ns.configuration);
  return out;
}

}  // namespace hbemu::server::thrift2_convert
