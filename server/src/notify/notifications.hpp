#pragma once
// Webhooks, as a subscriber of the room's effects. A room says what happened
// (NotifyOut: a step resolved, a decision owed, a deadline); this decides
// which hooks hear of it and how: a POST at once through the Notifier, or,
// for a hook marked daily_digest, an item queued for the day's digest.
//
// Daily digests: the queue and the time of the last digest are log entries
// (StoredDigest), applied by the reducer like every entry, so a restart keeps
// both; a digest whose time passed while the server was down goes out as soon
// as the game is awake again. A digest is logged as sent before it is posted
// (a crash in between loses that one POST, never repeats a day), and posting
// is the Notifier's: its retries and failures never hold up the room.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "galloper/v1/store.pb.h"
#include "server/src/game/effects.hpp"
#include "server/src/game/room_state.hpp"
#include "server/src/notify/notifier.hpp"

namespace galloper::server {

// ---- Digests: pure functions of the room's state. ----

// The digest hook a key names ("seat:<id>", "game:<i>"), if it still is one.
std::optional<Webhook> digest_hook(const RoomState& state, const std::string& key);
// A "digest" entry applied (reducer): an item queued, or the hook's queue
// emptied because its digest went; then the digest that went, to post.
std::optional<NotifyOut> apply_digest(RoomState& state, const v1::StoredDigest& entry);
// The digests due at `now_ms` (every queued one with `now_all`), as the
// entries that send them.
std::vector<v1::StoredDigest> due_digests(const RoomState& state, std::int64_t now_ms, bool now_all);
// When the next queued digest falls due; 0 when none is queued.
std::int64_t next_digest_ms(const RoomState& state);

// ---- The subscriber. ----
class Notifications {
 public:
  explicit Notifications(Notifier& notifier) : notifier_(notifier) {}

  // Tells the hooks `n` concerns (the seat's own, or every seat's for a game
  // notification, and the game's): live hooks are posted at once; digest hooks
  // get the entries to log that queue it (the caller appends them).
  std::vector<v1::StoredDigest> deliver(const RoomState& state, const NotifyOut& n, std::int64_t now_ms);
  // Posts a digest that went (its entry is on disk).
  void post_digest(const RoomState& state, const std::string& hook_key, const NotifyOut& digest);

 private:
  Notifier& notifier_;
};

}  // namespace galloper::server
