#include "codec/edit_codec.hpp"

namespace galloper::codec {

void to_proto(const rules::StateEdit& e, galloper::v1::EditState* out) {
  out->set_kind(e.kind);
  out->set_subject(e.subject);
  if (e.position) {
    out->mutable_position()->set_x(e.position->x);
    out->mutable_position()->set_y(e.position->y);
  }
  if (e.facing_deg) out->set_facing_deg(*e.facing_deg);
  if (e.value) out->set_value(*e.value);
  out->set_key(e.key);
  if (e.flag) out->set_flag(*e.flag);
}

rules::StateEdit from_proto(const galloper::v1::EditState& w) {
  rules::StateEdit e;
  e.kind = w.kind();
  e.subject = w.subject();
  if (w.has_position()) e.position = rules::Vec2{w.position().x(), w.position().y()};
  if (w.has_facing_deg()) e.facing_deg = w.facing_deg();
  if (w.has_value()) e.value = w.value();
  e.key = w.key();
  if (w.has_flag()) e.flag = w.flag();
  return e;
}


}  // namespace galloper::codec
