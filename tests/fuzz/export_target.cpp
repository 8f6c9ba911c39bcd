// The export file reader (`galloper verify`): any bytes read as an export,
// binary or text, and verified when they read: the seed against its
// commitment, the scenario loaded, every log entry replayed.
#include <string>

#include "server/src/tools/tools.hpp"
#include "tests/fuzz/targets.hpp"

namespace galloper::fuzz {

void game_export(Bytes data) {
  const std::string bytes(reinterpret_cast<const char*>(data.data()), data.size());
  v1::GameExport e;
  if (!server::tools::parse_export(bytes, e)) return;
  (void)server::tools::verify_export(e);
}

}  // namespace galloper::fuzz
