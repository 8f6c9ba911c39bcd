#include "rules/core/tell.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <vector>

namespace galloper::rules {

namespace {

// ASCII control characters, which no scenario text, id or name holds: a
// reference is kRef id kIdEnd; a span said only to a seat that sees a piece
// is kAbout id kIdEnd text kAboutEnd, one said only to a seat that knows it
// by name kKnownTo id kIdEnd text kAboutEnd.
constexpr char kKnownTo = '\x1A';
constexpr char kAboutEnd = '\x1C';
constexpr char kAbout = '\x1D';
constexpr char kRef = '\x1E';
constexpr char kIdEnd = '\x1F';

bool is_marker(char c) { return c == kKnownTo || c == kAboutEnd || c == kAbout || c == kRef || c == kIdEnd; }

constexpr std::string_view kUnseenLabel = "an unseen unit";
constexpr std::string_view kUmpireSeat = "umpire";

bool vowel(char c) {
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case 'a':
    case 'e':
    case 'i':
    case 'o':
    case 'u': return true;
    default: return false;
  }
}

std::string with_article(std::string phrase) {
  if (phrase.empty()) return phrase;
  return (vowel(phrase.front()) ? "an " : "a ") + phrase;
}

// What a player at the table sees of a piece: its kind (in its ruleset's
// noun, where it gives one) and troop type, whose side it stands on -- never
// its name or grade (RULINGS R21).
std::string seen_label(const UnitView& u, std::string_view seat_side) {
  std::string whose;
  if (!seat_side.empty()) whose = u.side == seat_side ? "friendly " : "enemy ";
  switch (u.kind) {
    case UnitKind::kBrigade:
      return with_article(whose + (u.noun.empty() ? "brigade" : u.noun) +
                          (u.troop_type.empty() ? "" : " of " + u.troop_type));
    case UnitKind::kGun: return with_article(whose + (u.troop_type.empty() ? "gun" : u.troop_type));
    case UnitKind::kLeader: return with_article(whose + "leader");
    case UnitKind::kMessenger: return with_article(whose + "messenger");
    case UnitKind::kMarker: return with_article(whose + (u.troop_type.empty() ? "" : u.troop_type + " ") + "marker");
  }
  return with_article(whose + "unit");
}

// A rendered label starts a sentence: the text so far is empty or ends one.
bool sentence_start(const std::string& out) {
  const auto last = out.find_last_not_of(' ');
  if (last == std::string::npos) return true;
  const char c = out[last];
  return c == '.' || c == '!' || c == '?';
}

// Renders `text` into `out` (empty): each reference by `told`, each span
// kept when `kept(id, named)` says so (named: a known_to span). Stops at
// malformed markup, and then takes back what a span left open had added.
void render(std::string_view text, const std::function<std::string(std::string_view, bool& label)>& told,
            const std::function<bool(std::string_view, bool named)>& kept, std::string& out) {
  std::vector<std::size_t> open;  // out's size where each open span began
  std::size_t dropped = 0;        // open spans not said to this seat (and those within them)
  std::size_t i = 0;
  // The id after a marker at `i`, up to kIdEnd; nullopt when malformed.
  auto read_id = [&](std::size_t at) -> std::optional<std::string_view> {
    const std::size_t end = text.find(kIdEnd, at + 1);
    if (end == std::string_view::npos) return std::nullopt;
    const std::string_view id = text.substr(at + 1, end - at - 1);
    if (std::any_of(id.begin(), id.end(), is_marker)) return std::nullopt;
    return id;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == kRef) {
      const auto id = read_id(i);
      if (!id) break;
      if (dropped == 0) {
        bool label = false;
        std::string said = told(*id, label);
        if (label && !said.empty() && sentence_start(out)) {
          said.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(said.front())));
        }
        out += said;
      }
      i += id->size() + 2;
    } else if (c == kAbout || c == kKnownTo) {
      const auto id = read_id(i);
      if (!id) break;
      open.push_back(out.size());
      if (dropped > 0 || !kept(*id, c == kKnownTo)) ++dropped;
      i += id->size() + 2;
    } else if (c == kAboutEnd) {
      if (open.empty()) break;
      open.pop_back();
      if (dropped > 0) --dropped;
      ++i;
    } else if (c == kIdEnd) {
      break;
    } else {
      if (dropped == 0) out += c;
      ++i;
    }
  }
  // A span never closed is not said at all.
  if (!open.empty()) out.resize(open.front());
  // Spans not said may leave the spaces that joined them at either end.
  const auto last = out.find_last_not_of(' ');
  out.erase(last == std::string::npos ? 0 : last + 1);
  out.erase(0, std::min(out.find_first_not_of(' '), out.size()));
}

}  // namespace

std::string Ref::operator()(std::string_view id) const {
  std::string out;
  out.reserve(id.size() + 2);
  out += kRef;
  out += id;
  out += kIdEnd;
  return out;
}

namespace {

std::string span(char opener, std::string_view id, std::string_view text) {
  std::string out;
  out.reserve(id.size() + text.size() + 3);
  out += opener;
  out += id;
  out += kIdEnd;
  out += text;
  out += kAboutEnd;
  return out;
}

}  // namespace

std::string about(std::string_view id, std::string_view text) { return span(kAbout, id, text); }

std::string known_to(std::string_view id, std::string_view text) { return span(kKnownTo, id, text); }

SeatKnowledge::SeatKnowledge(const View& after, const View* before) {
  umpire_ = after.seat == kUmpireSeat;
  // After first: on a tie, a piece is told as it stands now.
  add(after);
  if (before != nullptr) add(*before);
}

void SeatKnowledge::add(const View& view) {
  for (const auto& u : view.units) {
    Known k;
    switch (u.knowledge) {
      case Knowledge::kOwn:
      case Knowledge::kFriendly:
      case Knowledge::kUmpire:
        k.level = Known::Level::kNamed;
        k.label = u.name.empty() ? u.id : u.name;
        break;
      case Knowledge::kSeen:
        k.level = Known::Level::kSeen;
        k.label = seen_label(u, view.side);
        break;
      case Knowledge::kLastSeen: continue;  // where it was, not that it is there
    }
    k.id = u.id;
    auto it = known_.find(u.id);
    if (it == known_.end()) {
      known_.emplace(u.id, std::move(k));
    } else if (k.level > it->second.level) {
      it->second = std::move(k);
    }
  }
}

Known SeatKnowledge::operator()(std::string_view id) const {
  if (auto it = known_.find(id); it != known_.end()) return it->second;
  Known k;
  if (umpire_) {
    // A piece neither view shows (gone before the step): the umpire knows it all the same.
    k.level = Known::Level::kNamed;
    k.id = id;
    k.label = id;
  }
  return k;
}

std::string tell_text(std::string_view text, const SeatKnowledge& seat) {
  std::string out;
  out.reserve(text.size());
  render(
      text,
      [&](std::string_view id, bool& label) {
        Known k = seat(id);
        label = k.level != Known::Level::kNamed;
        return k.level == Known::Level::kUnseen ? std::string(kUnseenLabel) : std::move(k.label);
      },
      [&](std::string_view id, bool named) {
        const Known::Level level = seat(id).level;
        return named ? level == Known::Level::kNamed : level != Known::Level::kUnseen;
      },
      out);
  return out;
}

std::string plain_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  render(
      text,
      [](std::string_view id, bool& label) {
        label = false;
        return std::string(id);
      },
      [](std::string_view, bool) { return true; }, out);
  return out;
}

std::optional<Event> tell_event(const Event& event, const SeatKnowledge& seat) {
  const auto sees = [&](const Known& k) { return k.level != Known::Level::kUnseen; };
  bool reaches = event.is_public || seat.umpire();
  for (std::size_t i = 0; i < event.subjects.size() && !reaches; ++i) reaches = sees(seat(event.subjects[i]));
  if (!reaches) return std::nullopt;
  Event told;
  told.kind = event.kind;
  told.text = tell_text(event.text, seat);
  // Every word of it was for others: it did not happen as far as this seat knows.
  if (told.text.empty() && !event.text.empty() && !event.is_public && !seat.umpire()) return std::nullopt;
  for (const auto& s : event.subjects) {
    if (Known k = seat(s); sees(k)) told.subjects.push_back(std::move(k.id));
  }
  for (const auto& p : event.where) {
    if (p.of.empty()) {
      told.where.push_back(p);
    } else if (Known k = seat(p.of); sees(k)) {
      told.where.push_back({p.point, std::move(k.id)});
    }
  }
  told.dice = event.dice;
  told.is_public = event.is_public;
  return told;
}

Decision tell_decision(const Decision& decision, const SeatKnowledge& seat) {
  Decision told = decision;
  told.prompt = tell_text(decision.prompt, seat);
  told.subjects.clear();
  for (const auto& s : decision.subjects) {
    if (Known k = seat(s); k.level != Known::Level::kUnseen) told.subjects.push_back(std::move(k.id));
  }
  for (auto& o : told.options) {
    o.label = tell_text(o.label, seat);
    if (o.piece.empty()) continue;
    Known k = seat(o.piece);
    o.piece = k.level != Known::Level::kUnseen ? std::move(k.id) : std::string();
  }
  return told;
}

}  // namespace galloper::rules
