#include "server/src/notify/notifications.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace galloper::server {

namespace {

// "decision_owed" -> "decision owed", for the digest's lines.
std::string label(std::string kind) {
  std::replace(kind.begin(), kind.end(), '_', ' ');
  return kind;
}

Webhook hook_of(const v1::WebhookSpec& spec) {
  return Webhook{spec.url(), static_cast<WebhookFormat>(spec.format()), spec.daily_digest()};
}

}  // namespace

std::optional<Webhook> digest_hook(const RoomState& state, const std::string& key) {
  if (key.starts_with("seat:")) {
    const auto* seat = state.seat_named(key.substr(5));
    if (seat != nullptr && seat->webhook && seat->webhook->daily_digest) return seat->webhook;
    return std::nullopt;
  }
  if (key.starts_with("game:")) {
    const auto digits = key.substr(5);
    if (digits.empty() || digits.size() > 4 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) return std::nullopt;
    const auto i = std::stoi(digits);
    if (i >= state.settings.webhooks_size() || !state.settings.webhooks(i).daily_digest()) return std::nullopt;
    return hook_of(state.settings.webhooks(i));
  }
  return std::nullopt;
}

std::optional<NotifyOut> apply_digest(RoomState& state, const v1::StoredDigest& entry) {
  auto& queue = state.digests[entry.hook()];
  if (!entry.sent()) {
    queue.items.push_back(DigestItem{entry.kind(), entry.seat(), entry.text(), entry.at_ms()});
    return std::nullopt;
  }
  NotifyOut digest;
  digest.kind = "digest";
  digest.seat = entry.hook().starts_with("seat:") ? entry.hook().substr(5) : "";
  digest.text = "daily digest of game " + state.game_id + ": " + std::to_string(queue.items.size()) +
                " notification(s) since " + (queue.last_sent_ms > 0 ? "the last digest" : std::string("the game began"));
  for (const auto& item : queue.items) {
    digest.text += "\n- " + label(item.kind) + (item.seat.empty() ? "" : " (" + item.seat + ")") + ": " + item.text;
  }
  queue.items.clear();
  queue.last_sent_ms = entry.at_ms();
  return digest;
}

namespace {

// The first digest time after both the last digest and the oldest item queued.
std::int64_t due_at(const RoomState& state, const DigestQueue& queue) {
  const auto since = std::max(queue.last_sent_ms, queue.items.front().at_ms);
  return next_daily_deadline(since, state.digest_time, 1);
}

}  // namespace

std::vector<v1::StoredDigest> due_digests(const RoomState& state, std::int64_t now_ms, bool now_all) {
  std::vector<v1::StoredDigest> out;
  for (const auto& [key, queue] : state.digests) {
    // No longer a digest hook: the queue waits, unsent, until it is one again.
    if (queue.items.empty() || !digest_hook(state, key)) continue;
    if (!now_all && now_ms < due_at(state, queue)) continue;
    v1::StoredDigest sent;
    sent.set_hook(key);
    sent.set_sent(true);
    sent.set_at_ms(now_ms);
    out.push_back(std::move(sent));
  }
  return out;
}

std::int64_t next_digest_ms(const RoomState& state) {
  std::int64_t next = 0;
  for (const auto& [key, queue] : state.digests) {
    if (queue.items.empty() || !digest_hook(state, key)) continue;
    const auto at = due_at(state, queue);
    if (next == 0 || at < next) next = at;
  }
  return next;
}

std::vector<v1::StoredDigest> Notifications::deliver(const RoomState& state, const NotifyOut& n, std::int64_t now_ms) {
  std::vector<v1::StoredDigest> queued;
  const Notification note{n.kind, state.game_id, n.seat, n.text};
  // A digest lists each step's deadline ("deadline"); a live hook hears "deadline_near" instead.
  auto tell = [&](const std::string& key, const Webhook& hook) {
    if (hook.daily_digest) {
      if (n.kind == "deadline_near") return;
      v1::StoredDigest item;
      item.set_hook(key);
      item.set_at_ms(now_ms);
      item.set_kind(n.kind);
      item.set_seat(n.seat);
      item.set_text(n.text);
      queued.push_back(std::move(item));
    } else if (n.kind != "deadline") {
      notifier_.send(hook, note);
    }
  };
  if (!n.seat.empty()) {
    if (const auto* s = state.seat_named(n.seat); s != nullptr && s->webhook) tell("seat:" + s->seat.id, *s->webhook);
  } else {
    for (const auto& s : state.seats) {
      if (s.webhook) tell("seat:" + s.seat.id, *s.webhook);
    }
  }
  for (int i = 0; i < state.settings.webhooks_size(); ++i) {
    tell("game:" + std::to_string(i), hook_of(state.settings.webhooks(i)));
  }
  return queued;
}

void Notifications::post_digest(const RoomState& state, const std::string& hook_key, const NotifyOut& digest) {
  const auto hook = digest_hook(state, hook_key);
  if (!hook) return;
  spdlog::info("game {}: daily digest to {}", state.game_id, hook_key);
  notifier_.send(*hook, Notification{digest.kind, state.game_id, digest.seat, digest.text});
}

}  // namespace galloper::server
