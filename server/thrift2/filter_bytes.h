#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "server/limits.h"
#include "storage/filter.h"
#include "storage/status.h"

namespace hbemu::server::thrift2_filter_bytes {

// TGet/TScan.filterBytes: HBase's protobuf-serialized filter (what HBase's Java client,
// ThriftTable, sends for every filter) decoded into the filter prototype the filter language
// would build. Every filter of the language's registry, FilterList (MUST_PASS_ALL/ONE),
// SkipFilter and WhileMatchFilter, with the comparators BinaryComparator,
// BinaryPrefixComparator, RegexStringComparator and SubstringComparator. Each filter is built
// by the registry's own factory (storage/filters.h), so its rules live there once.
//
// Failures come back as HBase's Thrift2 gateway reports them (checked against HBase 2.6.1):
//  - bytes that are no Filter message: IOError with protobuf's InvalidProtocolBufferException
//    text ("Message missing required fields: name", ...), which HBase's client may retry;
//  - everything found while building: DoNotRetry whose message is the Java cause as HBase
//    prints it, class first: "java.lang.ClassNotFoundException: <name>" for a filter class
//    not decoded here, "org.apache.hadoop.hbase.exceptions.DeserializationException: ..." for
//    a bad body or comparator, "java.lang.IllegalArgumentException: must be positive -1" for
//    an argument the filter refuses; a filter nested in a FilterList, SkipFilter or
//    WhileMatchFilter is wrapped once more per level, as HBase does.
// The filter_bytes, filter_depth and filter_count limits bound the input and the tree (past
// them: DoNotRetry naming the limit). Memory stays linear in the input: each level's bytes are
// released once parsed, and a list's members are counted before they are parsed.
storage::Status DecodeFilterBytes(std::string_view bytes, std::shared_ptr<const storage::Filter>* out);
// The same under explicit limits (tests).
storage::Status DecodeFilterBytes(std::string_view bytes, const Limits& limits,
                                  std::shared_ptr<const storage::Filter>* out);

// Java's InvalidProtocolBufferException text for bytes of message type `message` (a full name
// in thrift/hbase_filter.proto, e.g. "hbemu.filterpb.PageFilter") that protobuf refused to
// parse: the first fault Java's parser meets (truncation, a zero tag, a malformed varint, an
// invalid wire type, a negative length, an unmatched end-group, nesting past 100 levels).
// filter_bytes_wire.cc.
std::string ParseFailureText(std::string_view bytes, const std::string& message);

// How many times `field` occurs at the top level of a message's bytes, counted up to the first
// fault (the parse that follows reports it). filter_bytes_wire.cc.
int64_t CountField(std::string_view bytes, uint32_t field);

}  // namespace hbemu::server::thrift2_filter_bytes
