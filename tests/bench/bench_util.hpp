#pragma once
// What the benchmarks share: a temporary directory for a store on disk, and
// showing a resolved step to every seat as a room does.
#include <stdlib.h>

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "codec/view_codec.hpp"
#include "galloper/v1/game.pb.h"
#include "rules/core/game.hpp"

namespace galloper::bench {

// A fresh directory under the system temp dir, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "galloper-bench-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// What a room does for each seat after a step: the events it may see, and its
// view serialized (into `bytes`). Returns the number of events shown in all.
inline std::size_t show_every_seat(const rules::Game& next, const std::vector<rules::Event>& events,
                                   const std::vector<rules::Seat>& seats, const rules::ViewSettings& settings,
                                   std::string& bytes) {
  std::size_t seen = 0;
  for (const auto& seat : seats) {
    seen += next.visible_events(events, seat.id, settings).size();
    v1::GameView view;
    codec::to_proto(next.view_for(seat.id, settings), &view);
    view.SerializeToString(&bytes);
  }
  return seen;
}

}  // namespace galloper::bench
