#include "server/admin/console.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>

#include "server/admin/bucketing.h"
#include "server/admin/heat_map.h"
#include "server/admin/pages.h"
#include "server/admin/process_stats.h"
#include "server/admin/table_counts.h"
#include "server/gateway/scanner_registry.h"
#include "server/limits.h"
#include "server/net/wire_stats.h"
#include "storage/schema_names.h"
#include "storage/store.h"

namespace hbemu::server::admin {
namespace {

using nlohmann::json;

// What an entry of a list inside a document (a region, a family, an attribute) may cost in any
// output, as a multiple of its compact JSON: HTML escaping turns one byte into at most six, and
// indentation adds little more.
constexpr size_t kWorstExpansion = 8;

size_t LimitOf(int64_t Limits::*field) {
  return static_cast<size_t>(std::max<int64_t>(CurrentLimits().*field, 0));
}

// Adds entries while their worst-case cost fits in *budget; false once one did not (the rest
// are left out).
bool Fits(const json& entry, size_t* budget) {
  const size_t cost = kWorstExpansion * JsonText(entry, -1).size();
  if (cost > *budget) {
    *budget = 0;
    return false;
  }
  *budget -= cost;
  return true;
}

// A shown key or qualifier: HBase's toStringBinary of its first admin_value_bytes bytes.
std::string ShownBytes(const std::string& bytes) {
  return ToStringBinary(Clip(bytes, LimitOf(&Limits::admin_value_bytes)));
}

int64_t UnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Attribute maps hold bytes; shown as HBase's toStringBinary so the JSON stays valid UTF-8,
// each key and value cut to admin_value_bytes, entries while they fit in *budget.
json StringMap(const std::map<std::string, std::string>& m, size_t* budget) {
  json j = json::object();
  for (const auto& [k, v] : m) {
    json entry = {ShownBytes(k), ShownBytes(v)};
    if (!Fits(entry, budget)) break;
    j[entry[0].get<std::string>()] = std::move(entry[1]);
  }
  return j;
}

json FamilyJson(const storage::FamilyDescriptor& f, size_t* budget) {
  json j;
  j["name"] = ShownBytes(f.name);
  j["VERSIONS"] = f.max_versions;
  j["MIN_VERSIONS"] = f.min_versions;
  j["TTL"] = f.ttl_seconds == storage::kForeverTtl ? json("FOREVER") : json(f.ttl_seconds);
  j["KEEP_DELETED_CELLS"] = storage::KeepDeletedCellsName(f.keep_deleted_cells);
  j["IN_MEMORY"] = f.in_memory;
  j["BLOCKCACHE"] = f.block_cache_enabled;
  j["COMPRESSION"] = f.compression;
  j["BLOOMFILTER"] = f.bloom_filter;
  j["BLOCKSIZE"] = f.block_size;
  j["DATA_BLOCK_ENCODING"] = f.data_block_encoding;
  j["REPLICATION_SCOPE"] = f.scope;
  j["DFS_REPLICATION"] = f.dfs_replication;
  j["CACHE_BLOOMS_ON_WRITE"] = f.cache_blooms_on_write;
  j["CACHE_DATA_ON_WRITE"] = f.cache_data_on_write;
  j["CACHE_INDEX_ON_WRITE"] = f.cache_indexes_on_write;
  j["COMPRESS_TAGS"] = f.compress_tags;
  j["EVICT_BLOCKS_ON_CLOSE"] = f.evict_blocks_on_close;
  // Client-set attributes and per-family configuration, as HBase's shell lists them.
  if (!f.values.empty()) j["METADATA"] = StringMap(f.values, budget);
  if (!f.configuration.empty()) j["CONFIGURATION"] = StringMap(f.configuration, budget);
  return j;
}

// "How evenly the keys spread": hot when one bucket has most of the traffic, even when the
// busiest bucket has no more than twice its fair share over several buckets.
json Spread(const std::vector<PrefixBucket>& buckets) {
  uint64_t total = 0, max = 0;
  int used = 0;
  const PrefixBucket* hottest = nullptr;
  for (const PrefixBucket& b : buckets) {
    const uint64_t n = b.reads + b.writes;
    if (n == 0) continue;
    ++used;
    total += n;
    if (n > max) {
      max = n;
      hottest = &b;
    }
  }
  json j;
  j["buckets_used"] = used;
  j["operations"] = total;
  if (total == 0) {
    j["kind"] = "idle";
    return j;
  }
  const double share = static_cast<double>(max) / static_cast<double>(total);
  j["hottest_bucket"] = PrefixLabel(hottest->prefix, hottest->rest);
  j["hottest_share"] = share;
  if (used >= 4 && share <= 2.0 / used) {
    j["kind"] = "even";
  } else if (share >= 0.5) {
    j["kind"] = "hot";
  } else {
    j["kind"] = "mixed";
  }
  return j;
}

}  // namespace

Console::Console(ConsoleSources sources)
    : sources_(std::move(sources)), counts_(std::make_unique<TableCounts>(sources_.store)) {}

Console::~Console() = default;

void Console::RefreshTables() const {
  // Dropped tables' series go; the heat map needs each table's region boundaries, which
  // change only with DDL, so taking them whenever a page or /metrics is read is fresh enough.
  const auto tables = sources_.store->ListTables();
  std::vector<std::string> names;
  names.reserve(tables.size());
  for (const auto& table : tables) names.push_back(table->name.ToString());
  sources_.metrics->RetainTables(names);
  for (size_t i = 0; i < tables.size(); ++i) {
    if (auto stats = sources_.metrics->FindTable(names[i])) {
      stats->heat.SetRegions(tables[i]->split_keys);
    }
  }
}

json Console::Overview() const {
  const int64_t now_ms = UnixMs();
  const int64_t now_s = Metrics::NowSeconds();
  json j;
  j["version"] = sources_.version;
  j["started"] = UtcDate(sources_.started_unix_ms);
  j["uptime_seconds"] = (now_ms - sources_.started_unix_ms) / 1000;
  j["storage"] = sources_.in_memory ? json("in memory") : json(sources_.data_dir);
  j["in_memory"] = sources_.in_memory;
  j["bind_address"] = sources_.bind_address;
  j["admin_bind_address"] = sources_.admin_bind_address.empty() ? sources_.bind_address
                                                                : sources_.admin_bind_address;
  j["admin_port"] = sources_.admin_port;
  json services = json::array();
  uint64_t scanners_open = 0;
  for (const ServicePort& s : sources_.services) {
    json service;
    service["name"] = s.name;
    service["port"] = s.port;
    service["modes"] = s.modes;
    json connections = json::object();
    if (s.wire != nullptr) {
      for (int m = 0; m < WireStats::kModes; ++m) {
        connections[WireStats::ModeName(m)] = s.wire->open[m].load(std::memory_order_relaxed);
      }
      service["bytes_in"] = s.wire->bytes_in.load(std::memory_order_relaxed);
      service["bytes_out"] = s.wire->bytes_out.load(std::memory_order_relaxed);
    }
    service["connections"] = connections;
    if (s.scanners != nullptr) {
      service["scanners_open"] = s.scanners->size();
      service["scanners_expired"] = s.scanners->expired();
      scanners_open += s.scanners->size();
    }
    services.push_back(service);
  }
  j["services"] = services;
  j["scanners_open"] = scanners_open;
  json methods = json::array();
  uint64_t errors = 0, calls = 0;
  for (const MethodStats* m : sources_.metrics->Methods()) {
    json method;
    method["service"] = m->service;
    method["method"] = m->method;
    method["ok"] = m->calls[0].load(std::memory_order_relaxed);
    method["errors"] = m->calls[1].load(std::memory_order_relaxed);
    method["per_second"] = m->recent.RatePerSecond(now_s);
    calls += method["ok"].get<uint64_t>() + method["errors"].get<uint64_t>();
    errors += method["errors"].get<uint64_t>();
    methods.push_back(method);
  }
  j["methods"] = methods;
  j["calls"] = calls;
  j["errors"] = errors;
  uint64_t store_bytes = 0;
  for (const auto& table : sources_.store->ListTables()) {
    uint64_t bytes = 0;
    if (sources_.store->ApproximateTableBytes(table->name.ToString(), &bytes).ok()) {
      store_bytes += bytes;
    }
  }
  j["store_table_file_bytes"] = store_bytes;
  std::string memory;
  if (sources_.store->DbProperty("leveldb.approximate-memory-usage", &memory)) {
    j["store_memory_bytes"] = std::stoull(memory);
  }
  if (!sources_.in_memory) {
    uint64_t disk = 0;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(sources_.data_dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code size_ec;
      if (it->is_regular_file(size_ec)) disk += it->file_size(size_ec);
    }
    j["store_disk_bytes"] = disk;
  }
  const ProcessStats process = ReadProcessStats();
  j["process"] = {{"resident_bytes", process.resident_bytes},
                  {"cpu_seconds", process.cpu_seconds},
                  {"threads", process.threads},
                  {"open_fds", process.open_fds}};
  return j;
}

json Console::TableSummary(const std::string& name, size_t budget) const {
  std::shared_ptr<const storage::TableDescriptor> table;
  const storage::Status s = sources_.store->DescribeTable(name, &table);
  if (!s.ok()) throw RequestError{404, "no table named '" + ToStringBinary(name) + "'"};
  json j;
  j["name"] = table->name.ToString();
  j["namespace"] = table->name.ns;
  j["enabled"] = table->enabled;
  j["created"] = UtcDate(table->created_ms);
  j["durability"] = storage::DurabilityName(table->durability);
  // Families, attributes and regions come from clients, in any number: each list shows what
  // fits in `budget` and says how many there are.
  j["attributes"] = StringMap(table->values, &budget);
  json families = json::array();
  for (const auto& f : table->families) {
    json family = FamilyJson(f, &budget);
    if (!Fits(family, &budget)) break;
    families.push_back(std::move(family));
  }
  j["families"] = families;
  j["family_count"] = table->families.size();
  json regions = json::array();
  const std::vector<std::string>& splits = table->split_keys;
  for (size_t i = 0; i <= splits.size(); ++i) {
    json region = {{"index", i},
                   {"start", i == 0 ? "" : ShownBytes(splits[i - 1])},
                   {"end", i == splits.size() ? "" : ShownBytes(splits[i])}};
    if (!Fits(region, &budget)) break;
    regions.push_back(std::move(region));
  }
  j["regions"] = regions;
  j["region_count"] = splits.size() + 1;
  uint64_t bytes = 0;
  if (sources_.store->ApproximateTableBytes(name, &bytes).ok()) j["approximate_bytes"] = bytes;
  return j;
}

namespace {

// The counts of one table as its summary shows them.
void AddCounts(const TableCounts::Count& count, json* j) {
  if (!count.known) {
    (*j)["counts_pending"] = true;  // the request's counting budget ran out first
    return;
  }
  (*j)["stored_rows"] = count.rows;
  (*j)["stored_cells"] = count.cells;
  (*j)["counts_complete"] = count.complete;
}

// Room kept for what a page adds around its list entries (header, style, notes).
constexpr size_t kPageFrameBytes = 16 << 10;

}  // namespace

json Console::Tables(const Measure& measure) const {
  RefreshTables();
  const size_t page_bytes = LimitOf(&Limits::admin_page_bytes);
  size_t used = kPageFrameBytes;
  auto take = [&](const json& entry, int depth) {
    const size_t size = measure ? measure(entry) : PrettySize(entry, depth);
    if (used + size > page_bytes) return false;
    used += size;
    return true;
  };
  json j;
  json namespaces = json::array();
  const auto all_namespaces = sources_.store->ListNamespaceDescriptors();
  for (const storage::NamespaceDescriptor& ns : all_namespaces) {
    size_t budget = page_bytes > used ? (page_bytes - used) / 2 : 0;
    json entry = {{"name", ns.name},
                  {"created", UtcDate(ns.created_ms)},
                  {"configuration", StringMap(ns.configuration, &budget)}};
    if (!take(entry, 2)) break;
    namespaces.push_back(std::move(entry));
  }
  j["namespaces"] = namespaces;
  j["namespace_count"] = all_namespaces.size();
  const auto all_tables = sources_.store->ListTables();
  json tables = json::array();
  std::vector<TableCounts::Table> counted;
  for (const auto& table : all_tables) {
    const std::string name = table->name.ToString();
    json summary;
    try {
      summary = TableSummary(name, page_bytes > used ? (page_bytes - used) / 2 : 0);
    } catch (const RequestError&) {
      continue;  // dropped since the listing
    }
    // The counts' own bytes are measured with their largest values.
    summary["stored_rows"] = summary["stored_cells"] = UINT64_MAX;
    summary["counts_complete"] = false;
    if (!take(summary, 2)) break;
    tables.push_back(std::move(summary));
    auto stats = sources_.metrics->FindTable(name);
    counted.push_back({table, stats ? stats->rows_written.load(std::memory_order_relaxed) : 0});
  }
  const std::vector<TableCounts::Count> counts = counts_->Get(counted, Metrics::NowSeconds());
  for (size_t i = 0; i < counts.size(); ++i) {
    for (const char* key : {"stored_rows", "stored_cells", "counts_complete"}) tables[i].erase(key);
    AddCounts(counts[i], &tables[i]);
  }
  j["tables"] = tables;
  j["table_count"] = all_tables.size();
  if (tables.size() < all_tables.size() || namespaces.size() < all_namespaces.size()) {
    j["ended_by"] = "admin_page_bytes";
  }
  return j;
}

json Console::Table(const std::string& name, const BucketSpec& spec) const {
  const size_t page_bytes = LimitOf(&Limits::admin_page_bytes);
  // Half the page for the table's description, the rest for the heat map (bounded by its own
  // caps: kMaxPrefixes prefixes, kMaxRegions regions).
  json j = TableSummary(name, page_bytes / 2);
  RefreshTables();
  std::shared_ptr<const storage::TableDescriptor> descriptor;
  if (sources_.store->DescribeTable(name, &descriptor).ok()) {
    auto written = sources_.metrics->FindTable(name);
    AddCounts(counts_->Get({{descriptor, written ? written->rows_written.load() : 0}},
                           Metrics::NowSeconds())[0],
              &j);
  }
  std::shared_ptr<const TableStats> stats = sources_.metrics->FindTable(name);
  // A table not counted (yet, or past the metric_tables cap) shows an empty heat map.
  TableStats empty(name);
  if (descriptor != nullptr) empty.heat.SetRegions(descriptor->split_keys);
  const TableStats& counted = stats ? *stats : empty;
  j["metrics"] = stats ? "own" : "none";
  const HeatMap::Snapshot heat = counted.heat.Read(Metrics::NowSeconds());
  j["rows_read"] = counted.rows_read.load(std::memory_order_relaxed);
  j["rows_written"] = counted.rows_written.load(std::memory_order_relaxed);
  json h;
  h["window_seconds"] = kWindowSeconds;
  h["windows"] = kWindows;
  h["prefix_bytes"] = spec.bytes;
  h["delimiter"] = spec.delimiter < 0 ? json(nullptr)
                                      : json(PrefixLabel(std::string(1, static_cast<char>(spec.delimiter))));
  h["tracked_prefixes"] = heat.prefixes.size();
  h["max_tracked_prefixes"] = kMaxPrefixes;
  h["prefixes_full"] = heat.prefixes_full;
  const std::vector<PrefixBucket> grouped = GroupBuckets(heat, spec);
  json buckets = json::array();
  for (const PrefixBucket& b : grouped) {
    json bucket = {{"bucket", PrefixLabel(b.prefix, b.rest)},
                   {"prefix_hex", HexOf(b.prefix)},
                   {"rest", b.rest},
                   {"reads", b.reads},
                   {"writes", b.writes},
                   {"window_reads", b.window_reads},
                   {"window_writes", b.window_writes}};
    if (b.prefix.size() == 1 && !b.rest) bucket["byte"] = static_cast<unsigned char>(b.prefix[0]);
    buckets.push_back(std::move(bucket));
  }
  h["buckets"] = buckets;
  json regions = json::array();
  for (int r = 0; r < heat.regions; ++r) {
    json windows_reads = json::array(), windows_writes = json::array();
    for (int w = 0; w < kWindows; ++w) {
      windows_reads.push_back(heat.region_reads[w][r]);
      windows_writes.push_back(heat.region_writes[w][r]);
    }
    regions.push_back({{"region", r},
                       {"reads", heat.region_total_reads[r]},
                       {"writes", heat.region_total_writes[r]},
                       {"window_reads", windows_reads},
                       {"window_writes", windows_writes}});
  }
  h["regions"] = regions;
  // Past the cap, longer buckets mix exact prefixes with whole first bytes (their rest), whose
  // sizes are not comparable: the spread is judged on first bytes then, where counts are exact.
  const bool coarse = heat.prefixes_full && (spec.bytes > 1 || spec.delimiter >= 0);
  h["spread"] = Spread(coarse ? GroupBuckets(heat, BucketSpec()) : grouped);
  h["spread"]["by_first_byte"] = coarse;
  j["heat"] = h;
  return j;
}

// ==================================================================== helpers

bool PercentDecode(const std::string& text, bool plus_is_space, std::string* out) {
  out->clear();
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+' && plus_is_space) {
      out->push_back(' ');
    } else if (c == '%') {
      if (i + 2 >= text.size()) return false;
      auto hex = [](char h) -> int {
        if (h >= '0' && h <= '9') return h - '0';
        if (h >= 'a' && h <= 'f') return h - 'a' + 10;
        if (h >= 'A' && h <= 'F') return h - 'A' + 10;
        return -1;
      };
      const int hi = hex(text[i + 1]), lo = hex(text[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out->push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out->push_back(c);
    }
  }
  return true;
}

bool IsValidUtf8(const std::string& text) {
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    int extra = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + extra >= text.size()) return false;
    for (int k = 1; k <= extra; ++k) {
      const unsigned char cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    static const uint32_t kMin[4] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

std::string ToStringBinary(const std::string& bytes) {
  std::string out;
  static const char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : bytes) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string UrlEncode(const std::string& text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += '%';
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::string HexOf(const std::string& bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

bool HexDecode(const std::string& hex, std::string* out) {
  auto digit = [](char h) -> int {
    if (h >= '0' && h <= '9') return h - '0';
    if (h >= 'a' && h <= 'f') return h - 'a' + 10;
    if (h >= 'A' && h <= 'F') return h - 'A' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0) return false;
  out->clear();
  out->reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = digit(hex[i]), lo = digit(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

std::string Clip(const std::string& bytes, size_t max_bytes) {
  return bytes.size() <= max_bytes ? bytes : bytes.substr(0, max_bytes);
}

std::string JsonText(const json& doc, int indent) {
  return doc.dump(indent, ' ', false, json::error_handler_t::replace);
}

size_t PrettySize(const json& item, int depth) {
  const std::string text = JsonText(item, 2);
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  // Every line indented by the nesting, plus the ",\n" that separates it from the next.
  return text.size() + lines * 2 * static_cast<size_t>(depth) + 2;
}

std::string HtmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

std::string UtcDate(int64_t ms) {
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  if (ms < 0 || gmtime_r(&seconds, &tm) == nullptr || tm.tm_year > 8099) return "";
  char buf[96];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(ms % 1000));
  return buf;
}

}  // namespace hbemu::server::admin
