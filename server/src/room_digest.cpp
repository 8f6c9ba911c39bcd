// Daily digests: a webhook marked daily_digest (a seat's or the game's) is not
// told of each event; the room queues what it would have been told and sends
// one notification a day (kind "digest") at the game's digest time, listing
// everything since the last digest.
//
// The queue and the time of the last digest are log entries (kind "digest",
// StoredDigest), so a restart keeps both: a digest whose time passed while the
// server was down goes out at the first tick after the game is loaded again.
// A digest is logged as sent before it is posted (a crash in between loses
// that one POST, never repeats a day), and posting is the Notifier's: its
// retries and failures never hold up the room. Times come from the room's
// clock (--manual-clock in tests); days from deadlines.cpp in the game's time zone.
#include <spdlog/spdlog.h>

#include "server/src/room.hpp"

namespace galloper::server {

namespace {

// "decision_owed" -> "decision owed", for the digest's lines.
std::string label(std::string kind) {
  for (auto& c : kind) {
    if (c == '_') c = ' ';
  }
  return kind;
}

}  // namespace

std::optional<Webhook> Room::digest_hook(const std::string& key) const {
  if (key.starts_with("seat:")) {
    for (const auto& s : seats_) {
      if ("seat:" + s.seat.id == key && s.webhook && s.webhook->daily_digest) return s.webhook;
    }
    return std::nullopt;
  }
  if (key.starts_with("game:")) {
    const auto i = std::stoi(key.substr(5));
    if (i < 0 || i >= settings_.webhooks_size() || !settings_.webhooks(i).daily_digest()) return std::nullopt;
    const auto& hook = settings_.webhooks(i);
    return Webhook{hook.url(), static_cast<WebhookFormat>(hook.format()), true};
  }
  return std::nullopt;
}

void Room::apply_digest(const v1::StoredDigest& entry) {
  auto& queue = digests_[entry.hook()];
  if (entry.sent()) {
    queue.items.clear();
    queue.last_sent_ms = entry.at_ms();
    return;
  }
  queue.items.push_back(DigestItem{entry.kind(), entry.seat(), entry.text(), entry.at_ms()});
}

void Room::queue_digest(const std::string& key, const Notification& n) {
  v1::StoredDigest stored;
  stored.set_hook(key);
  stored.set_at_ms(services_.clock.now_ms());
  stored.set_kind(n.kind);
  stored.set_seat(n.seat);
  stored.set_text(n.text);
  apply_digest(stored);
  append("digest", stored, 0, [] {});
  // The game is over: there is no later day to wait for.
  if (n.kind == "game_ended") send_due_digests(true);
}

void Room::send_due_digests(bool now_all) {
  if (failed_ || reloading_) return;
  const auto now = services_.clock.now_ms();
  for (auto& [key, queue] : digests_) {
    if (queue.items.empty()) continue;
    const auto hook = digest_hook(key);
    if (!hook) continue;  // no longer a digest hook: the queue waits, unsent, until it is one again
    // The first digest time after both the last digest and the oldest item queued.
    const auto since = std::max(queue.last_sent_ms, queue.items.front().at_ms);
    if (!now_all && now < next_daily_deadline(since, digest_time_, 1)) continue;

    std::string text = "daily digest of game " + record_.id + ": " + std::to_string(queue.items.size()) +
                       " notification(s) since " +
                       (queue.last_sent_ms > 0 ? "the last digest" : std::string("the game began"));
    for (const auto& item : queue.items) {
      text += "\n- " + label(item.kind) + (item.seat.empty() ? "" : " (" + item.seat + ")") + ": " + item.text;
    }
    const Notification n{"digest", record_.id, key.starts_with("seat:") ? key.substr(5) : "", std::move(text)};
    v1::StoredDigest sent;
    sent.set_hook(key);
    sent.set_sent(true);
    sent.set_at_ms(now);
    const auto count = queue.items.size();
    apply_digest(sent);
    append("digest", sent, 0, [self = shared_from_this(), hook = *hook, n, key, count] {
      spdlog::info("game {}: daily digest of {} notification(s) to {}", self->record_.id, count, key);
      self->services_.notifier.send(hook, n);
    });
  }
}

}  // namespace galloper::server
