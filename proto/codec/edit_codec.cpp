#include "codec/edit_codec.hpp"

#include <cstdio>

namespace galloper::codec {

namespace {

std::string num(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", d);
  std::string s(buf);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

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

std::string describe(const rules::StateEdit& e) {
  std::string out = e.kind + " " + e.subject;
  if (e.position) out += " to (" + num(e.position->x) + ", " + num(e.position->y) + ")";
  if (e.facing_deg) out += " facing " + num(*e.facing_deg);
  if (e.value) out += " value " + std::to_string(*e.value);
  if (!e.key.empty()) out += " " + e.key;
  if (e.kind == "attach" && e.key.empty()) out += " (detach)";
  if (e.flag) out += *e.flag ? " yes" : " no";
  if (e.kind == "advantage_of_ground" && !e.flag) out += " (cleared)";
  return out;
}

}  // namespace galloper::codec
