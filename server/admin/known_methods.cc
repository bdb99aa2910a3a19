#include "server/admin/known_methods.h"

#include <algorithm>
#include <iterator>

namespace hbemu::server::admin {
namespace {

// Sorted, for binary search. tests/server/admin/known_methods_test.cc checks both lists against
// the IDL files, so a method added there cannot be forgotten here.
constexpr std::string_view kThrift1[] = {
    "append", "atomicIncrement", "checkAndPut", "compact", "createTable", "deleteAll",
    "deleteAllRow", "deleteAllRowTs", "deleteAllTs", "deleteTable", "disableTable", "enableTable",
    "get", "getClusterId", "getColumnDescriptors", "getRegionInfo", "getRow", "getRowTs",
    "getRowWithColumns", "getRowWithColumnsTs", "getRows", "getRowsTs", "getRowsWithColumns",
    "getRowsWithColumnsTs", "getTableNames", "getTableNamesWithIsTableEnabled", "getTableRegions",
    "getThriftServerType", "getVer", "getVerTs", "grant", "increment", "incrementRows",
    "isTableEnabled", "majorCompact", "mutateRow", "mutateRowTs", "mutateRows", "mutateRowsTs",
    "revoke", "scannerClose", "scannerGet", "scannerGetList", "scannerOpen", "scannerOpenTs",
    "scannerOpenWithPrefix", "scannerOpenWithScan", "scannerOpenWithStop",
    "scannerOpenWithStopTs",
};
constexpr std::string_view kThrift2[] = {
    "addColumnFamily", "append", "checkAndDelete", "checkAndMutate", "checkAndPut",
    "clearSlowLogResponses", "closeScanner", "createNamespace", "createTable",
    "deleteColumnFamily", "deleteMultiple", "deleteNamespace", "deleteSingle", "deleteTable",
    "disableTable", "enableTable", "exists", "existsAll", "get", "getAllRegionLocations",
    "getClusterId", "getMultiple", "getNamespaceDescriptor", "getRegionLocation",
    "getScannerResults", "getScannerRows", "getSlowLogResponses", "getTableDescriptor",
    "getTableDescriptors", "getTableDescriptorsByNamespace", "getTableDescriptorsByPattern",
    "getTableNamesByNamespace", "getTableNamesByPattern", "getThriftServerType", "increment",
    "isTableAvailable", "isTableAvailableWithSplit", "isTableDisabled", "isTableEnabled",
    "listNamespaceDescriptors", "listNamespaces", "modifyColumnFamily", "modifyNamespace",
    "modifyTable", "mutateRow", "openScanner", "put", "putMultiple", "tableExists",
    "truncateTable",
};

// The REST door's calls: the HTTP method (HEAD counts as GET) and the shape of the path, as
// rest::RestMethodName names them (tests/server/rest/rest_calls_test.cc checks both ways).
constexpr std::string_view kRest[] = {
    "DELETE /namespaces/ns",
    "DELETE /table/row",
    "DELETE /table/scanner/id",
    "DELETE /table/schema",
    "GET /",
    "GET /namespaces",
    "GET /namespaces/ns",
    "GET /namespaces/ns/tables",
    "GET /status/cluster",
    "GET /table/exists",
    "GET /table/multiget",
    "GET /table/prefix*",
    "GET /table/regions",
    "GET /table/row",
    "GET /table/scanner/id",
    "GET /table/schema",
    "GET /version",
    "GET /version/cluster",
    "POST /namespaces/ns",
    "POST /table/row",
    "POST /table/scanner",
    "POST /table/schema",
    "PUT /namespaces/ns",
    "PUT /table/row",
    "PUT /table/scanner",
    "PUT /table/schema",
};

template <size_t N>
bool Contains(const std::string_view (&names)[N], std::string_view method) {
  return std::binary_search(std::begin(names), std::end(names), method);
}

}  // namespace

std::vector<std::string_view> KnownMethods(std::string_view service) {
  if (service == "thrift1") return {std::begin(kThrift1), std::end(kThrift1)};
  if (service == "thrift2") return {std::begin(kThrift2), std::end(kThrift2)};
  if (service == "rest") return {std::begin(kRest), std::end(kRest)};
  return {};
}

bool IsKnownMethod(std::string_view service, std::string_view method) {
  if (service == "thrift1") return Contains(kThrift1, method);
  if (service == "thrift2") return Contains(kThrift2, method);
  if (service == "rest") return Contains(kRest, method);
  return false;
}

}  // namespace hbemu::server::admin
