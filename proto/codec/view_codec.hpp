#pragma once
// rules::View -> wire. The only way a GameView is made.
#include "galloper/v1/game.pb.h"
#include "rules/core/game.hpp"

namespace galloper::codec {

void to_proto(const rules::View& view, galloper::v1::GameView* out);

}  // namespace galloper::codec
