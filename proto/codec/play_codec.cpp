#include "codec/play_codec.hpp"

namespace galloper::codec {

namespace {

const char* die_name(rules::DieKind kind) {
  switch (kind) {
    case rules::DieKind::kD6: return "d6";
    case rules::DieKind::kAverage: return "average";
    case rules::DieKind::kScatter: return "scatter";
    case rules::DieKind::kBearing: return "bearing";
    case rules::DieKind::kDn: return "dn";
  }
  return "d6";
}

}  // namespace

void to_proto(const rules::Decision& d, galloper::v1::Decision* out) {
  out->set_id(d.id);
  out->set_seat(d.seat);
  out->set_kind(d.kind);
  for (const auto& s : d.subjects) out->add_subjects(s);
  out->set_prompt(d.prompt);
  for (const auto& o : d.options) {
    auto* p = out->add_options();
    p->set_id(o.id);
    p->set_label(o.label);
    if (o.odds) p->set_odds(true);
  }
  out->set_default_option(d.default_option);
  for (const auto& [name, value] : d.limits) {
    auto* l = out->add_limits();
    l->set_name(name);
    l->set_value(value);
  }
}

void to_proto(const rules::Answer& a, galloper::v1::Answer* out) {
  out->set_decision_id(a.decision_id);
  out->set_option(a.option);
  for (const auto& s : a.steps) {
    auto* p = out->add_steps();
    p->set_action(s.action);
    p->set_distance(s.distance);
    p->set_angle_deg(s.angle_deg);
    p->set_pivot(s.pivot);
    p->set_formation(s.formation);
    p->mutable_to()->set_x(s.to.x);
    p->mutable_to()->set_y(s.to.y);
    p->set_target(s.target);
    p->set_order(s.order);
    p->set_has_objective(s.has_objective);
    p->set_feature(s.feature);
    p->set_unit(s.unit);
    p->set_wing(s.wing);
    p->set_command(s.command);
  }
}

void to_proto(const rules::Event& e, galloper::v1::Event* out) {
  out->set_kind(e.kind);
  out->set_text(e.text);
  for (const auto& s : e.subjects) out->add_subjects(s);
  // Only the points: whose they are is for telling (rules/core/tell.hpp), done before encoding.
  for (const auto& w : e.where) {
    auto* p = out->add_where();
    p->set_x(w.point.x);
    p->set_y(w.point.y);
  }
  for (const auto& r : e.dice) {
    auto* p = out->add_dice();
    p->set_kind(die_name(r.kind));
    p->set_face(r.face);
    p->set_draw(r.draw);
    p->set_sides(r.sides);
  }
  out->set_is_public(e.is_public);
}

rules::Answer from_proto(const galloper::v1::Answer& a, std::string seat) {
  rules::Answer out;
  out.decision_id = a.decision_id();
  out.seat = std::move(seat);
  out.option = a.option();
  for (const auto& s : a.steps()) {
    rules::OrderStep step;
    step.action = s.action();
    step.distance = s.distance();
    step.angle_deg = s.angle_deg();
    step.pivot = s.pivot();
    step.formation = s.formation();
    step.to = {s.to().x(), s.to().y()};
    step.target = s.target();
    step.order = s.order();
    step.has_objective = s.has_objective();
    step.feature = s.feature();
    step.unit = s.unit();
    step.wing = s.wing();
    step.command = s.command();
    out.steps.push_back(std::move(step));
  }
  return out;
}

}  // namespace galloper::codec
