#pragma once
// rules::View -> wire. The only way a GameView is made, whole or as a change
// to the last view a seat was sent (galloper/v1/game.proto, ViewChange).
#include <optional>
#include <string>

#include "galloper/v1/game.pb.h"
#include "rules/core/game.hpp"
#include "rules/core/view_update.hpp"

namespace galloper::codec {

void to_proto(const rules::View& view, galloper::v1::GameView* out);

// `now` told as the change `update` says it is (Game::refresh_view, which
// made `now` from the view the seat was last sent): the header whole, the
// new and changed units (and the terrain if it changed) in `out`, their
// places and the units gone in `change`. False, with nothing written, when
// `now` cannot be told so (update.whole: units kept in another order): send
// it whole then.
bool to_proto_change(const rules::View& now, const rules::ViewUpdate& update, galloper::v1::GameView* out,
                     galloper::v1::ViewChange* change);
// The same for `now` against `last` (both from view_for), by
// rules::update_view.
bool to_proto_change(const rules::View& last, const rules::View& now, galloper::v1::GameView* out,
                     galloper::v1::ViewChange* change);

// What a client does with a change: `last` (a whole view) with `view` and
// `change` applied, whole, in `out`. When the change does not fit `last` (a
// unit gone that is not there, a place out of order or beyond the view), a
// reason; `out` is then unspecified.
std::optional<std::string> apply_change(const galloper::v1::GameView& last, const galloper::v1::GameView& view,
                                        const galloper::v1::ViewChange& change, galloper::v1::GameView* out);

}  // namespace galloper::codec
