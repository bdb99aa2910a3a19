// The gateway's metadata resources: versions, cluster status, table and namespace lists,
// namespaces, schemas, regions, existence.

#include <sys/utsname.h>

#include <algorithm>

#include "server/gateway/family_attributes.h"
#include "server/gateway/regions.h"
#include "server/gateway/system_tables.h"
#include "server/rest/jetty_error.h"
#include "server/rest/rest_service.h"
#include "storage/store.h"

namespace hbemu::server::rest {
namespace {

// The HBase release whose gateway this one answers as.
constexpr const char* kHBaseVersion = "2.6.1";
constexpr const char* kRestVersion = "0.0.3";

std::string OsVersion() {
  utsname name{};
  if (uname(&name) != 0) return "unknown";
  return std::string(name.sysname) + " " + name.release + " " + name.machine;
}

// The namespace part of a table name ("default" for an unqualified one).
std::string NamespaceOf(const std::string& table) {
  const size_t colon = table.find(':');
  return colon == std::string::npos ? "default" : table.substr(0, colon);
}

TableSchemaModel ToSchemaModel(const storage::TableDescriptor& table) {
  TableSchemaModel model;
  model.name = table.name.ToString();
  model.attrs.emplace_back("IS_META", table.name.ns == "hbase" && table.name.qualifier == "meta"
                                          ? "true"
                                          : "false");
  for (const auto& [key, value] : table.values) model.attrs.emplace_back(key, value);
  for (const auto& family : table.families) {
    ColumnSchemaModel column;
    column.name = family.name;
    column.attrs = FamilyAttributes(family);
    model.columns.push_back(std::move(column));
  }
  return model;
}

// A schema body as a table specification: family attributes HBase reads as settings become
// settings, the rest plain values; IS_META and IS_ROOT are HBase's to derive.
storage::Status ToTableSpec(const TableSchemaModel& model, storage::TableDescriptor* spec) {
  for (const auto& [key, value] : model.attrs) {
    if (key == "IS_META" || key == "IS_ROOT") continue;
    spec->values[key] = value;
  }
  for (const auto& column : model.columns) {
    storage::FamilyDescriptor family;
    family.name = column.name;
    for (const auto& [key, value] : column.attrs) {
      bool known = false;
      storage::Status s = ApplyFamilyAttribute(key, value, &family, &known);
      if (!s.ok()) return s;
      if (!known) family.values[key] = value;
    }
    spec->families.push_back(std::move(family));
  }
  return storage::Status::OK();
}

// "http://host/path": where a created resource lives, as HBase's Location header says it.
std::string LocationOf(const HttpRequest& request) {
  const std::string target = request.target.substr(0, request.target.find('?'));
  return "http://" + request.Header("Host") + target;
}

HttpResponse Created(const HttpRequest& request) {
  HttpResponse response;
  response.status = 201;
  response.headers.emplace_back("Location", LocationOf(request));
  return response;
}

// HBase answers an alteration with the namespace's URL, written by whichever of Jersey's
// writers the Accept header picks: plain text (also for none or */*) or a JSON string. No other
// writer takes it: 500, no body.
HttpResponse Altered(const HttpRequest& request) {
  static const std::vector<std::string_view> kWriters = {kTextPlain, kJson};
  auto [type, rep, refusal] = Negotiate(request, kWriters);
  if (refusal) return Plain(500, "");
  const std::string url = LocationOf(request);
  if (rep != Representation::kJson) return Ok(type, url);
  std::string quoted = "\"";
  for (char c : url) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return Ok(type, quoted + "\"");
}

}  // namespace

HttpResponse RestService::Version(const HttpRequest& request) {
  auto [type, rep, refusal] = Negotiate(request, ProducesTextFirst());
  if (refusal) return *refusal;
  VersionModel model;
  model.rest_version = kRestVersion;
  model.jvm_version = "none (hbase-emulator " + options_.emulator_version + ")";
  model.os_version = OsVersion();
  model.server_version = "hbase-emulator";
  model.jersey_version = "";
  model.version = kHBaseVersion;
  model.revision = "";
  return Ok(type, Encode(rep, model));
}

HttpResponse RestService::ClusterVersion(const HttpRequest& request) {
  auto [type, rep, refusal] = Negotiate(request, ProducesClusterVersion());
  if (refusal) return *refusal;
  return Ok(type, Encode(rep, StorageClusterVersionModel{kHBaseVersion}));
}

HttpResponse RestService::ClusterStatus(const HttpRequest& request) {
  auto [type, rep, refusal] = Negotiate(request, ProducesTextFirst());
  if (refusal) return *refusal;
  StorageClusterStatusModel model;
  StorageClusterStatusModel::Node node;
  node.name = options_.server_name + ":" + std::to_string(options_.server_port);
  node.start_code = options_.start_code;
  for (const auto& system : SystemTables()) {
    for (const RegionView& region : RegionsOf(*system)) {
      StorageClusterStatusModel::Region r;
      r.name = system->name.qualifier == "meta" ? "hbase:meta,,1" : region.name;
      r.stores = static_cast<int32_t>(system->families.size());
      node.regions.push_back(std::move(r));
    }
  }
  for (const auto& table : store_->ListTables()) {
    for (const RegionView& region : RegionsOf(*table)) {
      StorageClusterStatusModel::Region r;
      r.name = region.name;
      r.stores = static_cast<int32_t>(table->families.size());
      node.regions.push_back(std::move(r));
    }
  }
  model.regions = static_cast<int32_t>(node.regions.size());
  model.average_load = model.regions;
  model.live_nodes.push_back(std::move(node));
  return Ok(type, Encode(rep, model));
}

HttpResponse RestService::Tables(const HttpRequest& request) {
  auto [type, rep, refusal] = Negotiate(request, ProducesTextFirst());
  if (refusal) return *refusal;
  TableListModel model;
  for (const auto& table : store_->ListTables()) model.tables.push_back({table->name.ToString()});
  return Ok(type, Encode(rep, model));
}

HttpResponse RestService::Namespaces(const HttpRequest& request) {
  auto [type, rep, refusal] = Negotiate(request, ProducesTextFirst());
  if (refusal) return *refusal;
  NamespacesModel model;
  model.namespaces = store_->ListNamespaces();
  std::sort(model.namespaces.begin(), model.namespaces.end());
  return Ok(type, Encode(rep, model));
}

HttpResponse RestService::Namespace(const HttpRequest& request, const Route& route) {
  const std::string& method = request.method;
  const std::string& ns = route.name_space;
  if (method == "GET" || method == "HEAD") {
    auto [type, rep, refusal] = Negotiate(request, ProducesTextFirst());
    if (refusal) return *refusal;
    storage::NamespaceDescriptor descriptor;
    // HBase's resource lets the NamespaceNotFoundException through: Jetty's 500.
    if (!store_->DescribeNamespace(ns, &descriptor).ok()) return RequestFailed(request);
    NamespacesInstanceModel model;
    model.namespace_name = ns;
    for (const auto& [key, value] : descriptor.configuration) model.properties.emplace_back(key, value);
    return Ok(type, Encode(rep, model));
  }
  if (method == "DELETE") {
    storage::NamespaceDescriptor descriptor;
    if (!store_->DescribeNamespace(ns, &descriptor).ok()) {
      return Plain(404, "Namespace '" + ns + "' does not exists.  Cannot drop namespace.");
    }
    storage::Status s = store_->DeleteNamespace(ns);
    if (!s.ok()) return Unavailable();
    return Plain(200, "");
  }
  if (method != "PUT" && method != "POST") {
    return MethodNotAllowed(request, "DELETE,POST,GET,OPTIONS,PUT");
  }
  // A body is optional: without one the namespace has no properties.
  NamespacesInstanceModel model;
  if (!request.body.empty() || request.HasHeader("Content-Type")) {
    Representation rep;
    HttpResponse refusal;
    if (!ChooseRequest(request, &rep, &refusal)) return refusal;
    // JSON and protobuf read an empty body as no properties; JAXB refuses it.
    if (!request.body.empty() || rep == Representation::kXml) {
      BodyStatus decoded = Decode(rep, request.body, &model);
      // What the reader throws here reaches HBase's container: Jetty's page with its status.
      if (!decoded.ok()) {
        const bool bad_request = decoded.http_status() == 400;
        return JettyError(request, decoded.http_status(),
                          bad_request ? "Bad Request" : "Request failed.");
      }
    }
  }
  std::map<std::string, std::string> properties(model.properties.begin(), model.properties.end());
  storage::NamespaceDescriptor existing;
  const bool exists = store_->DescribeNamespace(ns, &existing).ok();
  if (method == "PUT") {
    if (!exists) {
      return Plain(403, "Namespace '" + ns +
                            "' does not exist. Use REST POST to create the namespace.");
    }
    storage::Status s = store_->ModifyNamespace(ns, std::move(properties));
    if (!s.ok()) return FromStatus(s);
    return Altered(request);
  }
  if (exists) {
    return Plain(403, "Namespace '" + ns +
                          "' already exists.  Use REST PUT to alter the existing namespace.");
  }
  storage::Status s = store_->CreateNamespace(ns, std::move(properties));
  if (!s.ok()) return FromStatus(s);
  return Created(request);
}

HttpResponse RestService::NamespaceTables(const HttpRequest& request, const Route& route) {
  auto [type, rep, refusal] = Negotiate(request, ProducesTextFirst());
  if (refusal) return *refusal;
  storage::NamespaceDescriptor descriptor;
  // As for the namespace itself: Jetty's 500.
  if (!store_->DescribeNamespace(route.name_space, &descriptor).ok()) return RequestFailed(request);
  TableListModel model;
  for (const auto& table : store_->ListTables()) {
    const std::string name = table->name.ToString();
    // Listed by their qualifiers, as HBase's resource does.
    if (NamespaceOf(name) == route.name_space) model.tables.push_back({table->name.qualifier});
  }
  return Ok(type, Encode(rep, model));
}

HttpResponse RestService::Schema(const HttpRequest& request, const Route& route) {
  const std::string& method = request.method;
  if (method == "GET" || method == "HEAD") {
    auto [type, rep, refusal] = Negotiate(request, ProducesTextFirst());
    if (refusal) return *refusal;
    std::shared_ptr<const storage::TableDescriptor> table;
    storage::Status s = store_->DescribeTable(route.table, &table);
    if (!s.ok()) return FromStatus(s);
    return Ok(type, Encode(rep, ToSchemaModel(*table)));
  }
  if (method == "DELETE") {
    std::shared_ptr<const storage::TableDescriptor> table;
    storage::Status s = store_->DescribeTable(route.table, &table);
    if (!s.ok()) return FromStatus(s);
    // HBase's resource disables the table first when it is enabled.
    if (table->enabled) s = store_->DisableTable(route.table);
    if (s.ok()) s = store_->DeleteTable(route.table);
    if (!s.ok()) return FromStatus(s);
    return Plain(200, "");
  }
  if (method == "PUT" || method == "POST") return PutSchema(request, route);
  return MethodNotAllowed(request, "DELETE,POST,GET,OPTIONS,PUT");
}

// PUT replaces the schema of an existing table, POST adds to it; both create a missing table.
// HBase answers a replacement as it answers a creation (201 and a Location), an addition 200.
HttpResponse RestService::PutSchema(const HttpRequest& request, const Route& route) {
  Representation rep;
  HttpResponse refusal;
  if (!ChooseRequest(request, &rep, &refusal)) return refusal;
  TableSchemaModel model;
  BodyStatus decoded = Decode(rep, request.body, &model);
  if (!decoded.ok()) return BodyRefusal(decoded);
  storage::TableDescriptor spec;
  storage::Status s = ToTableSpec(model, &spec);
  if (!s.ok()) return FromStatus(s);
  std::shared_ptr<const storage::TableDescriptor> existing;
  if (!store_->DescribeTable(route.table, &existing).ok()) {
    s = store_->CreateTable(route.table, std::move(spec));
    if (!s.ok()) return FromStatus(s);
    return Created(request);
  }
  if (request.method == "PUT") {
    s = store_->ModifyTable(route.table, spec);
    if (!s.ok()) return FromStatus(s);
    return Created(request);
  } else {
    for (auto& family : spec.families) {
      s = existing->FindFamily(family.name) != nullptr ? store_->ModifyFamily(route.table, family)
                                                       : store_->AddFamily(route.table, family);
      if (!s.ok()) break;
    }
  }
  if (!s.ok()) return FromStatus(s);
  return Plain(200, "");
}

HttpResponse RestService::Regions(const HttpRequest& request, const Route& route) {
  auto [type, rep, refusal] = Negotiate(request, ProducesTextFirst());
  if (refusal) return *refusal;
  std::shared_ptr<const storage::TableDescriptor> table;
  storage::Status s = store_->DescribeTable(route.table, &table);
  if (!s.ok()) return NotFound();
  TableInfoModel model;
  model.name = route.table;
  for (const RegionView& region : RegionsOf(*table)) {
    TableRegionModel r;
    r.table = region.table;
    r.id = region.region_id;
    r.start_key = region.start_key;
    r.end_key = region.end_key;
    r.location = options_.server_name + ":" + std::to_string(options_.server_port);
    r.name = region.name;
    model.regions.push_back(std::move(r));
  }
  return Ok(type, Encode(rep, model));
}

HttpResponse RestService::Exists(const HttpRequest& request, const Route& route) {
  auto [type, rep, refusal] = Negotiate(request, ProducesTextFirst());
  if (refusal) return *refusal;
  std::shared_ptr<const storage::TableDescriptor> table;
  if (!store_->DescribeTable(route.table, &table).ok()) return NotFound();
  return Plain(200, "");
}

}  // namespace hbemu::server::rest
