#include "codec/ruleset_codec.hpp"

namespace galloper::codec {

namespace {

void terms(const std::vector<rules::Term>& from, google::protobuf::RepeatedPtrField<galloper::v1::Term>* to) {
  for (const auto& t : from) {
    auto* out = to->Add();
    out->set_key(t.key);
    out->set_label(t.label);
    out->set_help(t.help);
  }
}

}  // namespace

void to_proto(const rules::RulesetInfo& info, galloper::v1::RulesetInfo* out) {
  out->set_name(info.name);
  out->set_title(info.title);
  out->set_unit_name(info.unit_name);
  out->set_unit_plural(info.unit_plural);
  out->set_scale(info.scale);
  if (info.alternate) out->add_modes(galloper::v1::PLAY_MODE_ALTERNATE);
  if (info.simultaneous) out->add_modes(galloper::v1::PLAY_MODE_SIMULTANEOUS);
  terms(info.seat_roles, out->mutable_seat_roles());
  terms(info.phases, out->mutable_phases());
  terms(info.decision_kinds, out->mutable_decision_kinds());
  for (const auto& a : info.step_actions) {
    auto* action = out->add_step_actions();
    action->set_key(a.key);
    action->set_label(a.label);
    for (const auto& f : a.fields) action->add_fields(f);
  }
  for (const auto& o : info.orders) {
    auto* kind = out->add_orders();
    kind->set_decision_kind(o.decision_kind);
    for (const auto& a : o.actions) kind->add_actions(a);
  }
  terms(info.formations, out->mutable_formations());
  terms(info.statuses, out->mutable_statuses());
  terms(info.troop_types, out->mutable_troop_types());
  for (const auto& e : info.edit_kinds) {
    auto* kind = out->add_edit_kinds();
    kind->set_kind(e.kind);
    kind->set_label(e.label);
    for (const auto& f : e.fields) kind->add_fields(f);
    kind->set_key_label(e.key_label);
  }
  for (const auto& d : info.odds_dice) {
    auto* dice = out->add_odds_dice();
    dice->set_decision_kind(d.decision_kind);
    terms(d.choices, dice->mutable_choices());
    dice->set_default_choice(d.default_choice);
  }
}

}  // namespace galloper::codec
