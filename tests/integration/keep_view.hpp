#pragma once
// For tests of views sent as changes: what a client does with a
// StepResolved's view (kept apart from game_driver.hpp, which the load tests
// use without the codec).
#include <optional>
#include <string>
#include <utility>

#include "codec/view_codec.hpp"
#include "galloper/v1/protocol.pb.h"

namespace galloper::testing {

// What a client does with a StepResolved's view: `held` becomes the seat's
// new whole view, the view itself or, when it comes as a change, the change
// applied to `held` (codec::apply_change). A reason when the change does not
// apply (`held` is then left as it was).
inline std::optional<std::string> keep_step_view(v1::GameView& held, const v1::StepResolved& sr) {
  if (!sr.has_change()) {
    held = sr.view();
    return std::nullopt;
  }
  v1::GameView whole;
  if (auto wrong = codec::apply_change(held, sr.view(), sr.change(), &whole)) return wrong;
  held = std::move(whole);
  return std::nullopt;
}

}  // namespace galloper::testing
