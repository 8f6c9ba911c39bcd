#pragma once
// Telling: what a seat is told (ARCHITECTURE.md, "Hidden information").
//
// A ruleset writes every text a seat may read -- an event's, a decision's
// prompt and labels, a refusal's reason -- as a template: the pieces it names
// are references (ref), and what would give away an unseen piece (how far it
// stood, what it rolled) is said only to a seat that sees it (about). Each
// seat's copy is then built from what that seat sees (SeatKnowledge, from its
// views): a piece it knows is told by name, one its troops see by what stands
// on the table ("an enemy brigade of horse"), any other as "an unseen unit".
// No text is built whole and trimmed afterwards.
//
// Grammar for template writers: a reference may render as a name ("Navarre")
// or as a label with its article ("an enemy brigade of horse", "an unseen
// unit"), so write texts where a noun phrase reads well as subject or
// object: "X charges Y", "the charge of X" -- not "X's charge", "Brigade X"
// or "Gun X". A label opening a sentence is capitalised; names are told as
// written.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "rules/core/decision.hpp"
#include "rules/core/game.hpp"

namespace galloper::rules {

// A piece, told as the seat knows it: ref(id). An object rather than a
// function so that a call with a std::string is not taken by std::ref
// (argument-dependent lookup does not apply when a name finds an object).
struct Ref {
  std::string operator()(std::string_view id) const;
};
inline constexpr Ref ref{};
// `text`, said only to a seat that sees piece `id` (it may hold refs and
// abouts of its own: nest them to say a thing only to seats that see two).
std::string about(std::string_view id, std::string_view text);
// `text`, said only to a seat that knows piece `id` by name (Known::kNamed:
// its own side's, the umpire): what the table does not show, such as the
// orders a leader receives. A non-public event whose whole text is such is
// not told at all to the seats that only see the piece.
std::string known_to(std::string_view id, std::string_view text);

// How one seat knows one piece.
struct Known {
  enum class Level : std::uint8_t { kUnseen, kSeen, kNamed };
  Level level = Level::kUnseen;
  std::string id;     // the id the seat knows the piece by (today its real id; kept so aliases can come later); empty when unseen
  std::string label;  // kNamed: its name (its id when it has none); kSeen: what a player at the table sees
                      // ("an enemy brigade of horse", "an enemy light gun"); kUnseen: empty
};

// How one seat knows pieces, built from that seat's views: the one it held
// when the step opened (`before`, may be null) and the one it is sent after
// the step (`after`), so a piece destroyed, or gone out of sight, in the
// step is still known as the seat knew it. A unit in either view known
// Own, Friendly or Umpire is kNamed; Seen is kSeen, labelled from its kind
// (or noun) and troop type only, never its name (RULINGS R21); LastSeen
// markers and absent pieces are kUnseen. The umpire's view (seat "umpire")
// names every piece, those absent from both views by their ids. Keeps
// copies: the views need not outlive it.
class SeatKnowledge {
 public:
  SeatKnowledge(const View& after, const View* before = nullptr);
  Known operator()(std::string_view id) const;
  bool umpire() const { return umpire_; }

 private:
  void add(const View& view);

  bool umpire_ = false;
  std::map<std::string, Known, std::less<>> known_;
};

// The text as this seat reads it: refs rendered, about() spans kept or
// dropped. Malformed markup (a marker unclosed or out of place) ends the
// text there: nothing after it is told.
std::string tell_text(std::string_view text, const SeatKnowledge& seat);
// The event as this seat is told it, or nullopt when it learns nothing of
// it: public events reach everyone; others only a seat that sees (kSeen or
// kNamed) at least one subject and is told some of its text; the umpire
// all. Told: the text rendered;
// subjects only those the seat sees (by Known::id); where only the places of
// pieces the seat sees, and the event's own points (empty `of`); dice as
// rolled.
std::optional<Event> tell_event(const Event& event, const SeatKnowledge& seat);
// The decision as its seat is told it: prompt and labels rendered, subjects
// and options' pieces as the seat knows them (those it does not see dropped).
Decision tell_decision(const Decision& decision, const SeatKnowledge& seat);
// The umpire's rendering without a view: every ref as its id, every about()
// span kept (tests, logs, tools).
std::string plain_text(std::string_view text);

}  // namespace galloper::rules
