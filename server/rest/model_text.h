#pragma once

#include <string>

#include "server/rest/models.h"

namespace hbemu::server::rest {

// text/plain bodies as HBase 2.6.1's gateway writes them (each model's toString). HBase has no
// text form of a CellSet (it answers 406; a single value is application/octet-stream) nor of a
// request body.

// "rest 0.0.3 [JVM: ...] [OS: ...] [Server: ...] [Jersey: ...] [Version: ...] [Revision: ...]\n"
std::string EncodeVersionText(const VersionModel& model);
// The version alone, no newline.
std::string EncodeStorageClusterVersionText(const StorageClusterVersionModel& model);
// One table name per line.
std::string EncodeTableListText(const TableListModel& model);
// One namespace per line.
std::string EncodeNamespacesText(const NamespacesModel& model);
// "{NAME => 'ns', key => 'value', ...}"
std::string EncodeNamespacesInstanceText(const NamespacesInstanceModel& model);
// "{ NAME=> 't', ATTR => 'v', COLUMNS => [ { NAME => 'cf', ATTR => 'v' }, ... ] }"
std::string EncodeTableSchemaText(const TableSchemaModel& model);
// Per region: "<name> [\n  id=..\n  startKey='..'\n  endKey='..'\n  location='..'\n]\n\n".
std::string EncodeTableInfoText(const TableInfoModel& model);
// The summary line, then each live server with its regions, then the dead servers.
std::string EncodeStorageClusterStatusText(const StorageClusterStatusModel& model);

}  // namespace hbemu::server::rest
