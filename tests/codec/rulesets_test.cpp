// The registry of rulesets (proto/codec/rulesets.hpp) and what each says of
// itself (rules/core/ruleset.hpp), held against what its engine does: every
// decision kind a game owes, every action its bot's orders take and every
// edit kind it accepts is one the ruleset's words describe.
#include "codec/rulesets.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <variant>

#include "codec/scenario_codec.hpp"
#include "rules/core/bot.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/edit.hpp"

namespace galloper::codec {
namespace {

template <typename List>
bool has_key(const List& list, const std::string& key) {
  return std::any_of(list.begin(), list.end(), [&](const auto& t) { return t.key == key; });
}

TEST(Rulesets, FoundByNameAndUnknownNamesAreNot) {
  ASSERT_FALSE(rulesets().empty());
  std::set<std::string> names;
  for (const Ruleset* r : rulesets()) {
    EXPECT_TRUE(names.insert(r->info().name).second) << "two rulesets named " << r->info().name;
    EXPECT_EQ(find_ruleset(r->info().name), r);
    EXPECT_FALSE(r->info().title.empty());
    EXPECT_FALSE(r->info().unit_name.empty());
    EXPECT_FALSE(r->info().scale.empty());
    EXPECT_TRUE(r->info().alternate || r->info().simultaneous) << "a ruleset plays in at least one mode";
  }
  EXPECT_NE(find_ruleset("malbrook"), nullptr);
  EXPECT_EQ(find_ruleset("chess"), nullptr);
  EXPECT_EQ(find_ruleset(""), nullptr);
  EXPECT_NE(ruleset_names().find("\"malbrook\""), std::string::npos);
}

// Each ruleset's bundled scenarios, played 40 steps by the bot from each
// seat's own view: every decision kind owed, every action ordered, every
// phase and every formation shown is in the ruleset's words.
TEST(Rulesets, TheirWordsDescribeWhatTheirGamesDo) {
  int played = 0;
  for (const auto& bundled : bundled_scenarios()) {
    auto loaded = load_scenario(bundled.text, rules::Seed{7});
    ASSERT_TRUE(std::holds_alternative<NewGame>(loaded)) << bundled.name;
    std::unique_ptr<rules::Game> game = std::move(std::get<NewGame>(loaded).game);
    const Ruleset* ruleset = find_ruleset(game->ruleset());
    ASSERT_NE(ruleset, nullptr) << bundled.name;
    const rules::RulesetInfo& words = ruleset->info();
    std::set<std::string> order_kinds;
    for (const auto& o : words.orders) {
      order_kinds.insert(o.decision_kind);
      EXPECT_TRUE(has_key(words.decision_kinds, o.decision_kind)) << o.decision_kind;
      for (const auto& a : o.actions) EXPECT_TRUE(has_key(words.step_actions, a)) << o.decision_kind << ": " << a;
    }
    for (const auto& d : words.odds_dice) {
      EXPECT_TRUE(has_key(words.decision_kinds, d.decision_kind)) << d.decision_kind;
      EXPECT_TRUE(has_key(d.choices, d.default_choice)) << d.decision_kind << ": default " << d.default_choice;
    }
    for (int step = 0; step < 40 && !game->finished(); ++step) {
      EXPECT_TRUE(has_key(words.phases, game->phase())) << bundled.name << ": phase " << game->phase();
      std::vector<rules::Answer> answers;
      for (const auto& d : game->pending()) {
        EXPECT_TRUE(has_key(words.decision_kinds, d.kind)) << bundled.name << ": decision kind " << d.kind;
        const rules::View view = game->view_for(d.seat, rules::ViewSettings{});
        rules::Bot bot(static_cast<std::uint32_t>(step * 31 + answers.size()),
                       [&](const rules::View& v, const rules::Decision& dd, rules::BotRng& rng) {
                         return game->propose(v, dd, rng);
                       });
        rules::Answer a = bot.answer(view, d, [&](const rules::Answer& x) { return game->check(x); });
        for (const auto& st : a.steps) {
          EXPECT_TRUE(has_key(words.step_actions, st.action)) << bundled.name << ": action " << st.action;
          EXPECT_TRUE(order_kinds.contains(d.kind)) << d.kind << " takes steps but no order kind lists its actions";
        }
        answers.push_back(std::move(a));
      }
      rules::KeyedDice dice(rules::Seed{7}, game->step());
      auto next = game->resolve(answers, dice);
      if (!next.ok()) {
        // Orders legal alone may collide: every seat holds instead.
        for (auto& a : answers) a = rules::Bot::fallback(game->pending()[&a - answers.data()]);
        rules::KeyedDice again(rules::Seed{7}, game->step());
        next = game->resolve(answers, again);
      }
      ASSERT_TRUE(next.ok()) << bundled.name << " step " << step << ": " << next.error().reason;
      game = std::move(next.value().next);
      for (const auto& u : game->view_for("umpire", rules::ViewSettings{}).units) {
        if (u.formation.empty() || u.formation == "unformed") continue;
        EXPECT_TRUE(has_key(words.formations, u.formation)) << bundled.name << ": formation " << u.formation;
      }
    }
    ++played;
  }
  EXPECT_GE(played, 2);
}

// Every edit kind a ruleset lists is one its engine takes (an edit of a
// made-up subject is refused for the subject, not the kind), and a kind it
// does not list is refused naming those it does.
TEST(Rulesets, EditKindsAreTheOnesTheEngineTakes) {
  for (const Ruleset* r : rulesets()) {
    const BundledScenario* any = nullptr;
    for (const auto& b : bundled_scenarios()) {
      if (b.name.starts_with(r->info().name + "/")) any = &b;
    }
    ASSERT_NE(any, nullptr) << r->info().name << " bundles no scenario";
    auto loaded = load_scenario(any->text, rules::Seed{});
    ASSERT_TRUE(std::holds_alternative<NewGame>(loaded));
    const auto& game = *std::get<NewGame>(loaded).game;
    for (const auto& k : r->info().edit_kinds) {
      rules::StateEdit e;
      e.kind = k.kind;
      e.subject = "no-such-unit";
      auto out = game.edit(e);
      ASSERT_FALSE(out.ok());
      EXPECT_NE(out.error().code, "unknown_edit") << k.kind;
    }
    rules::StateEdit unknown;
    unknown.kind = "teleport";
    unknown.subject = "no-such-unit";
    auto out = game.edit(unknown);
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.error().code, "unknown_edit");
    for (const auto& k : r->info().edit_kinds) EXPECT_NE(out.error().reason.find(k.kind), std::string::npos) << k.kind;
  }
}

}  // namespace
}  // namespace galloper::codec
