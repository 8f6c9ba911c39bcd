#include "codec/odds_codec.hpp"

namespace galloper::codec {

std::optional<rules::OddsQuestion> from_proto(const galloper::v1::OddsRequest& request) {
  rules::OddsQuestion q;
  switch (request.proposal_case()) {
    case galloper::v1::OddsRequest::kCharge:
      q.kind = rules::OddsQuestion::Kind::kCharge;
      q.unit = request.charge().charger();
      q.target = request.charge().target();
      q.dice = request.charge().dice();
      q.a_outrance = request.charge().a_outrance();
      return q;
    case galloper::v1::OddsRequest::kShot:
      q.kind = rules::OddsQuestion::Kind::kShot;
      q.unit = request.shot().gun();
      q.target = request.shot().target();
      return q;
    case galloper::v1::OddsRequest::kAnswer:
      q.kind = rules::OddsQuestion::Kind::kAnswer;
      q.answer.decision_id = request.answer().answer().decision_id();
      q.answer.option = request.answer().answer().option();
      q.dice = request.answer().dice();
      return q;
    case galloper::v1::OddsRequest::PROPOSAL_NOT_SET:
      break;
  }
  return std::nullopt;
}

void to_proto(const rules::OddsAnswer& answer, galloper::v1::OddsReply* out) {
  out->set_summary(answer.summary);
  for (const auto& n : answer.notes) out->add_notes(n);
  for (const auto& o : answer.outcomes) {
    auto* w = out->add_outcomes();
    w->set_label(o.label);
    w->set_numerator(o.numerator);
    w->set_denominator(o.denominator);
    w->set_probability(o.probability);
  }
}

}  // namespace galloper::codec
