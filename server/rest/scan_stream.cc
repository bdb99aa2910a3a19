#include "server/rest/scan_stream.h"

#include <algorithm>

#include "server/rest/model_protobuf.h"

namespace hbemu::server::rest {
namespace {

void AppendChunk(std::vector<RowModel>::const_iterator begin,
                 std::vector<RowModel>::const_iterator end, std::string* out) {
  CellSetModel chunk;
  chunk.rows.assign(begin, end);
  const std::string bytes = EncodeCellSetProtobuf(chunk);
  const auto size = static_cast<uint16_t>(bytes.size());
  out->push_back(static_cast<char>(size >> 8));
  out->push_back(static_cast<char>(size & 0xff));
  out->append(bytes);
}

}  // namespace

std::string EncodeCellSetStream(const std::vector<RowModel>& rows, int64_t limit,
                                int32_t fetch_size) {
  std::string out;
  if (limit < fetch_size) {
    AppendChunk(rows.begin(), rows.end(), &out);
    return out;
  }
  for (size_t at = 0; at < rows.size();) {
    const size_t take = std::min(rows.size() - at, static_cast<size_t>(fetch_size));
    AppendChunk(rows.begin() + static_cast<std::ptrdiff_t>(at),
                rows.begin() + static_cast<std::ptrdiff_t>(at + take), &out);
    at += take;
  }
  return out;
}

}  // namespace hbemu::server::rest
