import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { EventSchema, GameViewSchema } from "@gen/galloper/v1/game_pb";
import { ChatChannel, ChatMessageSchema, DecisionsOwedSchema, EventsSinceSchema, GameNoticeSchema, StepResolvedSchema } from "@gen/galloper/v1/protocol_pb";
import { NOTICE_TITLE, channelLabel, channelsFor, countdown, initialLife, lifeReducer, type LifeAction, type LifeState } from "../src/game/life";
import { initialPlayState, playReducer } from "../src/play/state";

const G = "g1";
const view = (sequence: number, extra: Record<string, unknown> = {}) =>
  create(GameViewSchema, { gameId: G, sequence: BigInt(sequence), seedCommitment: "abc", ...extra });
const ev = (sequence: number) => create(EventSchema, { sequence: BigInt(sequence), text: `e${sequence}`, step: 1n });
const chat = (sequence: number, text = `m${sequence}`) =>
  create(ChatMessageSchema, { gameId: G, sequence: BigInt(sequence), fromSeat: "red/army", channel: ChatChannel.ALL, text });
const since = (events: number[], chats: number[] = [], more = false) =>
  create(EventsSinceSchema, { gameId: G, events: events.map(ev), chat: chats.map((c) => chat(c)), more });
const run = (actions: LifeAction[], from: LifeState = initialLife(G)) => actions.reduce(lifeReducer, from);

describe("sequence bookkeeping for reconnects", () => {
  it("counts a joined view's sequence only once EventsSince has come", () => {
    let s = run([{ type: "joining" }, { type: "view", view: view(7) }]);
    expect(s.lastSequence).toBe(0n); // the events before 7 are still on their way
    s = lifeReducer(s, { type: "eventsSince", since: since([]) });
    expect(s.lastSequence).toBe(7n);
    expect(s.syncing).toBe(false);
  });

  it("follows events and later views", () => {
    const s = run([
      { type: "joining" },
      { type: "view", view: view(3) },
      { type: "eventsSince", since: since([]) },
      { type: "events", events: [ev(4), ev(6), ev(5)] },
      { type: "view", view: view(6) },
    ]);
    expect(s.lastSequence).toBe(6n);
    expect(s.behind).toBe(false);
    // A view never moves it back.
    expect(lifeReducer(s, { type: "view", view: view(2) }).lastSequence).toBe(6n);
  });

  it("is behind when the seat's own count skips: a gap in the events, or a view counting more", () => {
    const joined = run([{ type: "joining" }, { type: "view", view: view(3) }, { type: "eventsSince", since: since([1, 2, 3]) }]);
    // Events 4 and 5 never came: the count stays at 3 so a join asks for them.
    const gap = lifeReducer(joined, { type: "events", events: [ev(6), ev(7)] });
    expect(gap.lastSequence).toBe(3n);
    expect(gap.behind).toBe(true);
    // A view that counts events this page was never sent (the end of the
    // game shown to a spectator watching late, with only the last step's).
    const view9 = lifeReducer(joined, { type: "view", view: view(9) });
    expect(view9.lastSequence).toBe(3n);
    expect(view9.behind).toBe(true);
    // Joining again clears it; the missed events come in its EventsSince.
    const again = run([{ type: "joining" }, { type: "view", view: view(9) }, { type: "eventsSince", since: since([4, 5, 6, 7, 8, 9]) }], view9);
    expect(again).toMatchObject({ lastSequence: 9n, behind: false, syncing: false });
  });

  it("a drop before EventsSince does not skip the missed events", () => {
    let s = run([{ type: "joining" }, { type: "view", view: view(3) }, { type: "eventsSince", since: since([]) }]);
    expect(s.lastSequence).toBe(3n);
    // Re-join: Joined carries view 9, then the socket drops before EventsSince.
    s = run([{ type: "joining" }, { type: "view", view: view(9) }], s);
    expect(s.lastSequence).toBe(3n);
    // The next re-join asks from 3 again and gets 4..9.
    s = run([{ type: "joining" }, { type: "view", view: view(9) }, { type: "eventsSince", since: since([4, 5, 9]) }], s);
    expect(s.lastSequence).toBe(9n);
  });

  it("merges EventsSince into the play state without duplicating events", () => {
    let p = initialPlayState(G);
    p = playReducer(p, { type: "stepResolved", resolved: create(StepResolvedSchema, { gameId: G, step: 1n, events: [ev(1), ev(2)] }) });
    // Reconnect: the server resends from the page's last sequence (or more).
    p = playReducer(p, { type: "eventsSince", since: since([2, 3, 3, 4]) });
    expect(p.events.map((e) => e.sequence)).toEqual([1n, 2n, 3n, 4n]);
    const same = playReducer(p, { type: "eventsSince", since: since([1, 4]) });
    expect(same).toBe(p);
  });
});

describe("EventsSince in pages", () => {
  it("keeps catching up until the last page, counting the view only then", () => {
    let s = run([{ type: "joining" }, { type: "view", view: view(1000) }]);
    s = lifeReducer(s, { type: "eventsSince", since: since([1, 2, 3], [1, 2], true) });
    expect(s).toMatchObject({ syncing: true, lastSequence: 3n, lastChatSequence: 2n });
    s = lifeReducer(s, { type: "eventsSince", since: since([4, 5], [3], true) });
    expect(s).toMatchObject({ syncing: true, lastSequence: 5n, lastChatSequence: 3n });
    // A drop here: the next join asks from 5 and from chat message 3.
    s = lifeReducer(s, { type: "eventsSince", since: since([6], []) });
    expect(s).toMatchObject({ syncing: false, lastSequence: 1000n, lastChatSequence: 3n });
    expect(s.chat.map((m) => m.sequence)).toEqual([1n, 2n, 3n]);
  });

  it("counts the chat it has, pushed or caught up, for the next join", () => {
    let s = run([{ type: "joining" }, { type: "view", view: view(0) }, { type: "eventsSince", since: since([], [1, 2]) }]);
    expect(s.lastChatSequence).toBe(2n);
    s = lifeReducer(s, { type: "chat", message: chat(3) });
    expect(s.lastChatSequence).toBe(3n);
    // A re-join keeps it (the server sends what comes after it) ...
    s = lifeReducer(s, { type: "joining" });
    expect(s.lastChatSequence).toBe(3n);
    // ... and an older message sent again changes nothing.
    s = lifeReducer(s, { type: "eventsSince", since: since([], [2, 4]) });
    expect(s.chat.map((m) => m.sequence)).toEqual([1n, 2n, 3n, 4n]);
    expect(s.lastChatSequence).toBe(4n);
  });
});

describe("rewind", () => {
  it("a view behind the open step resets what the seat owes, keeping the events", () => {
    let p = initialPlayState(G);
    p = playReducer(p, { type: "stepResolved", resolved: create(StepResolvedSchema, { gameId: G, step: 4n, events: [ev(1)], next: { gameId: G, step: 5n } }) });
    expect(p.step).toBe(5n);
    expect(playReducer(p, { type: "viewStep", step: 5n })).toBe(p);
    const back = playReducer(p, { type: "viewStep", step: 2n });
    expect(back.step).toBeNull();
    expect(back.events.map((e) => e.sequence)).toEqual([1n]);
    // The DecisionsOwed that follows a rewind applies.
    const owed = playReducer(back, { type: "decisions", owed: create(DecisionsOwedSchema, { gameId: G, step: 2n }) });
    expect(owed.step).toBe(2n);
  });

  it("the rewound notice drops the undone steps' events", () => {
    const at = (sequence: number, step: number) =>
      create(EventSchema, { sequence: BigInt(sequence), text: `e${sequence}`, step: BigInt(step) });
    let p = initialPlayState(G);
    p = playReducer(p, { type: "eventsSince", since: create(EventsSinceSchema, { gameId: G, events: [at(1, 1), at(2, 2), at(3, 3), at(4, 3)] }) });
    const back = playReducer(p, { type: "rewound", step: 2n });
    expect(back.events.map((e) => e.sequence)).toEqual([1n]);
  });

  it("a view of an ended game carries how it ended", () => {
    const s = run([{ type: "view", view: view(3, { ended: true, result: "the umpire ended the game: a draw" }) }]);
    expect(s.ended).toBe(true);
    expect(s.result).toBe("the umpire ended the game: a draw");
  });
});

describe("chat", () => {
  it("keeps each message once, in sequence order, from pushes and history", () => {
    const s = run([
      { type: "chat", message: chat(2) },
      { type: "eventsSince", since: since([], [1, 2, 3]) },
      { type: "chat", message: chat(3) },
    ]);
    expect(s.chat.map((m) => m.text)).toEqual(["m1", "m2", "m3"]);
  });

  it("ignores another game's messages", () => {
    const other = create(ChatMessageSchema, { gameId: "g2", sequence: 1n, text: "x" });
    expect(run([{ type: "chat", message: other }]).chat).toEqual([]);
  });

  it("offers the umpire a private line to a seat, players their side and wing", () => {
    expect(channelsFor("umpire").map((c) => c.key)).toEqual(["all", "to_seat", "wing"]);
    expect(channelsFor("umpire").find((c) => c.key === "to_seat")).toMatchObject({ channel: ChatChannel.UMPIRE, toSeat: true });
    expect(channelsFor("red/army").map((c) => c.channel)).toEqual([ChatChannel.ALL, ChatChannel.SIDE, ChatChannel.WING, ChatChannel.UMPIRE]);
    expect(channelLabel(create(ChatMessageSchema, { channel: ChatChannel.SIDE, side: "red" }))).toBe("side red");
    expect(channelLabel(create(ChatMessageSchema, { channel: ChatChannel.UMPIRE, toSeat: "red/army" }))).toBe("to red/army");
  });
});

describe("notices", () => {
  const notice = (kind: string, extra: Record<string, unknown> = {}) =>
    ({ type: "notice", notice: create(GameNoticeSchema, { gameId: G, kind, text: `${kind}!`, ...extra }), at: 1 }) as LifeAction;

  it("titles a reopened step", () => {
    const s = run([notice("reopened", { step: 4n })]);
    expect(s.notices.map((n) => [n.kind, n.text])).toEqual([["reopened", "reopened!"]]);
    expect(NOTICE_TITLE["reopened"]).toBe("Step reopened");
  });

  it("tracks the pause and the deadline the notices carry", () => {
    let s = run([notice("paused", { paused: true, deadlineUnix: 100n })]);
    expect(s.paused).toBe(true);
    expect(s.deadlineUnix).toBe(100);
    s = lifeReducer(s, notice("resumed", { paused: false, deadlineUnix: 160n }));
    expect(s.paused).toBe(false);
    expect(s.deadlineUnix).toBe(160);
    expect(s.notices.map((n) => n.kind)).toEqual(["paused", "resumed"]);
  });

  it("records the end: result and seed", () => {
    const s = run([{ type: "view", view: view(1) }, notice("ended", { seedHex: "00ff" })]);
    expect(s).toMatchObject({ ended: true, result: "ended!", seedHex: "00ff", commitment: "abc", deadlineUnix: 0 });
  });

  it("remembers the first commitment and flags a different one", () => {
    const s = run([{ type: "view", view: view(1) }, { type: "view", view: view(2, { seedCommitment: "xyz" }) }]);
    expect(s.commitment).toBe("abc");
    expect(s.commitmentChanged).toBe("xyz");
  });

  it("counts down to a deadline", () => {
    const now = 1_000_000_000_000;
    expect(countdown(0, now)).toBe("");
    expect(countdown(now / 1000 - 5, now)).toBe("passed");
    expect(countdown(now / 1000 + 9, now)).toBe("9 s");
    expect(countdown(now / 1000 + 249, now)).toBe("4 min 09 s");
    expect(countdown(now / 1000 + 7500, now)).toBe("2 h 05 min");
    expect(countdown(now / 1000 + 90000, now)).toBe("1 d 1 h");
  });
});
