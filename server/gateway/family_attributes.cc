#include "server/gateway/family_attributes.h"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>

#include "storage/schema_names.h"

namespace hbemu::server {
namespace {

using storage::Status;

const char* Bool(bool b) { return b ? "true" : "false"; }

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

Status ParseInt(const std::string& key, const std::string& text, int32_t* out) {
  errno = 0;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX) {
    return Status::InvalidArgument("For input string: \"" + text + "\" (" + key + ")");
  }
  *out = static_cast<int32_t>(v);
  return Status::OK();
}

}  // namespace

std::vector<std::pair<std::string, std::string>> FamilyAttributes(
    const storage::FamilyDescriptor& in) {
  std::vector<std::pair<std::string, std::string>> out = {
      {"INDEX_BLOCK_ENCODING", "NONE"},
      {"VERSIONS", std::to_string(in.max_versions)},
      {"KEEP_DELETED_CELLS", storage::KeepDeletedCellsName(in.keep_deleted_cells)},
      {"DATA_BLOCK_ENCODING", in.data_block_encoding},
      {"TTL", std::to_string(in.ttl_seconds)},
      {"MIN_VERSIONS", std::to_string(in.min_versions)},
      {"REPLICATION_SCOPE", std::to_string(in.scope)},
      {"BLOOMFILTER", in.bloom_filter},
      {"IN_MEMORY", Bool(in.in_memory)},
      {"COMPRESSION", in.compression},
      {"BLOCKCACHE", Bool(in.block_cache_enabled)},
      {"BLOCKSIZE", std::to_string(in.block_size)},
  };
  if (in.cache_blooms_on_write) out.emplace_back("CACHE_BLOOMS_ON_WRITE", "true");
  if (in.cache_data_on_write) out.emplace_back("CACHE_DATA_ON_WRITE", "true");
  if (in.cache_indexes_on_write) out.emplace_back("CACHE_INDEX_ON_WRITE", "true");
  if (!in.compress_tags) out.emplace_back("COMPRESS_TAGS", "false");
  if (in.evict_blocks_on_close) out.emplace_back("EVICT_BLOCKS_ON_CLOSE", "true");
  if (in.dfs_replication != 0) {
    out.emplace_back("DFS_REPLICATION", std::to_string(in.dfs_replication));
  }
  for (const auto& [key, value] : in.values) {
    bool replaced = false;
    for (auto& entry : out) {
      if (entry.first == key) {
        entry.second = value;
        replaced = true;
      }
    }
    if (!replaced) out.emplace_back(key, value);
  }
  return out;
}

Status ApplyFamilyAttribute(const std::string& key, const std::string& value,
                            storage::FamilyDescriptor* f, bool* known) {
  *known = true;
  if (key == "VERSIONS") return ParseInt(key, value, &f->max_versions);
  if (key == "MIN_VERSIONS") return ParseInt(key, value, &f->min_versions);
  if (key == "TTL") return ParseInt(key, value, &f->ttl_seconds);
  if (key == "BLOCKSIZE") return ParseInt(key, value, &f->block_size);
  if (key == "REPLICATION_SCOPE") return ParseInt(key, value, &f->scope);
  if (key == "DFS_REPLICATION") return ParseInt(key, value, &f->dfs_replication);
  if (key == "BLOOMFILTER") f->bloom_filter = Upper(value);
  else if (key == "COMPRESSION") f->compression = Upper(value);
  else if (key == "DATA_BLOCK_ENCODING") f->data_block_encoding = Upper(value);
  else if (key == "KEEP_DELETED_CELLS") {
    const std::string v = Upper(value);
    if (v == "TRUE") f->keep_deleted_cells = storage::KeepDeletedCells::kTrue;
    else if (v == "TTL") f->keep_deleted_cells = storage::KeepDeletedCells::kTtl;
    else f->keep_deleted_cells = storage::KeepDeletedCells::kFalse;
  } else if (key == "BLOCKCACHE") f->block_cache_enabled = value == "true";
  else if (key == "IN_MEMORY") f->in_memory = value == "true";
  else if (key == "CACHE_BLOOMS_ON_WRITE") f->cache_blooms_on_write = value == "true";
  else if (key == "CACHE_DATA_ON_WRITE") f->cache_data_on_write = value == "true";
  else if (key == "CACHE_INDEX_ON_WRITE") f->cache_indexes_on_write = value == "true";
  else if (key == "COMPRESS_TAGS") f->compress_tags = value == "true";
  else if (key == "EVICT_BLOCKS_ON_CLOSE") f->evict_blocks_on_close = value == "true";
  else *known = false;
  return Status::OK();
}

}  // namespace hbemu::server
