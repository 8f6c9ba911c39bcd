// The game's life around the play (pure): notices (pauses, deadlines,
// broadcasts, the end), chat, the seed commitment as shown since the page
// joined, and the sequence bookkeeping a reconnect needs.
//
// Like play/state.ts it only records what the server said.
import type { Event, GameView } from "@gen/galloper/v1/game_pb";
import { ChatChannel, type ChatMessage, type EventsSince, type GameNotice } from "@gen/galloper/v1/protocol_pb";

export interface NoticeItem {
  kind: string;
  text: string;
  at: number; // ms, when the page received it
  // The step the notice names (GameNotice.step; 0 when it names none) and
  // the step open when the page received it (null: none known yet). The
  // banner's headline is only a notice about the open step (game/notices.ts).
  step: bigint;
  openStep: bigint | null;
}

export interface LifeState {
  gameId: string;
  paused: boolean;
  deadlineUnix: number; // 0: none
  ended: boolean;
  result: string; // the "ended" notice's text
  seedHex: string; // revealed at the end
  // The commitment as first shown to this page, and whether a later view ever
  // showed a different one (it must not).
  commitment: string;
  commitmentChanged: string;
  notices: NoticeItem[]; // newest last, at most MAX_NOTICES
  chat: ChatMessage[]; // by sequence, no repeats
  // The seat's own count of the events it was told (Event.sequence, no
  // gaps): every event up to it has been received (JoinGame.last_sequence).
  lastSequence: bigint;
  // The last chat message received, in the seat's own count of the chat it
  // may read (JoinGame.last_chat_sequence).
  lastChatSequence: bigint;
  // Between a JoinGame and the last page of its EventsSince (`more` unset),
  // a view's sequence is not yet accounted for (the events before it are
  // still on their way): it is held here and counted once the last page
  // has come.
  syncing: boolean;
  heldSequence: bigint;
  // The server numbered something this page never received: an event after
  // a gap, or a view counting more events than came. Joining again with
  // lastSequence fetches them (the page does so once; the join clears it).
  behind: boolean;
}

export const MAX_NOTICES = 30;

export function initialLife(gameId = ""): LifeState {
  return {
    gameId,
    paused: false,
    deadlineUnix: 0,
    ended: false,
    result: "",
    seedHex: "",
    commitment: "",
    commitmentChanged: "",
    notices: [],
    chat: [],
    lastSequence: 0n,
    lastChatSequence: 0n,
    syncing: true,
    heldSequence: 0n,
    behind: false,
  };
}

export type LifeAction =
  | { type: "view"; view: GameView }
  | { type: "notice"; notice: GameNotice; at: number; openStep?: bigint | null }
  | { type: "chat"; message: ChatMessage }
  | { type: "events"; events: readonly Event[] }
  | { type: "eventsSince"; since: EventsSince }
  | { type: "joining" };

const other = (state: LifeState, gameId: string) => !!state.gameId && !!gameId && gameId !== state.gameId;

export function lifeReducer(state: LifeState, action: LifeAction): LifeState {
  switch (action.type) {
    case "view": {
      const v = action.view;
      if (other(state, v.gameId)) return state;
      const commitment = state.commitment || v.seedCommitment;
      const changed =
        state.commitment && v.seedCommitment && v.seedCommitment !== state.commitment ? v.seedCommitment : state.commitmentChanged;
      return {
        ...state,
        gameId: state.gameId || v.gameId,
        paused: v.paused,
        deadlineUnix: Number(v.deadlineUnix),
        ended: state.ended || v.ended,
        result: v.ended && v.result ? v.result : state.result,
        seedHex: v.seedHex || state.seedHex,
        commitment,
        commitmentChanged: changed,
        ...(state.syncing
          ? { heldSequence: max(state.heldSequence, v.sequence) }
          : v.sequence > state.lastSequence
            ? { behind: true }
            : {}),
      };
    }
    case "notice": {
      const n = action.notice;
      if (other(state, n.gameId)) return state;
      const item: NoticeItem = { kind: n.kind, text: n.text, at: action.at, step: n.step, openStep: action.openStep ?? null };
      const notices = [...state.notices, item].slice(-MAX_NOTICES);
      const next: LifeState = { ...state, notices };
      if (n.kind === "ended") {
        return { ...next, ended: true, result: n.text, seedHex: n.seedHex || state.seedHex, paused: false, deadlineUnix: 0 };
      }
      // Every notice but "ended" carries the pause flag and deadline in force.
      return { ...next, paused: n.paused, deadlineUnix: Number(n.deadlineUnix) };
    }
    case "chat":
      if (other(state, action.message.gameId)) return state;
      return {
        ...state,
        chat: mergeChat(state.chat, [action.message]),
        lastChatSequence: max(state.lastChatSequence, action.message.sequence),
      };
    case "events": {
      const counted = countEvents(state.lastSequence, action.events);
      return { ...state, lastSequence: counted.last, behind: state.behind || counted.gap };
    }
    case "eventsSince": {
      // One page of what the join missed; the last one (`more` unset) ends
      // the catching up, and the joined view's count holds from then on.
      const s = action.since;
      if (other(state, s.gameId)) return state;
      const counted = countEvents(state.lastSequence, s.events);
      const next: LifeState = {
        ...state,
        chat: mergeChat(state.chat, s.chat),
        lastChatSequence: s.chat.reduce((m, c) => max(m, c.sequence), state.lastChatSequence),
        lastSequence: counted.last,
      };
      if (s.more) return next;
      return { ...next, lastSequence: max(next.lastSequence, state.heldSequence), syncing: false, heldSequence: 0n };
    }
    case "joining":
      return { ...state, syncing: true, heldSequence: 0n, behind: false };
  }
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

// Events are numbered by the seat's own count, from 1 with no gaps: the
// count moves on only over events that follow on; a later one means some
// were never received (`gap`).
function countEvents(start: bigint, events: readonly Event[]): { last: bigint; gap: boolean } {
  let last = start;
  let gap = false;
  const sorted = [...events].sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
  for (const e of sorted) {
    if (e.sequence === last + 1n) last = e.sequence;
    else if (e.sequence > last) gap = true;
  }
  return { last, gap };
}

// Chat accumulates; a message seen twice (pushed, then in EventsSince after a
// reconnect) is kept once.
export function mergeChat(have: ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return have;
  const seen = new Set(have.map((m) => m.sequence));
  const add = incoming.filter((m) => !seen.has(m.sequence) && (seen.add(m.sequence), true));
  if (add.length === 0) return have;
  return [...have, ...add].sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
}

// ---- Chat channels ----

export interface ChannelChoice {
  key: string;
  label: string;
  channel: ChatChannel;
  toSeat: boolean; // needs the seat to write to
}

// What a seat may write on. The umpire has no side: "all", privately to one
// seat, or its own notes. Players: all, their side, their wing's notes, the
// umpire. The server checks again.
export function channelsFor(seat: string): ChannelChoice[] {
  if (seat === "umpire") {
    return [
      { key: "all", label: "Everyone", channel: ChatChannel.ALL, toSeat: false },
      { key: "to_seat", label: "Privately to a seat", channel: ChatChannel.UMPIRE, toSeat: true },
      { key: "wing", label: "My notes", channel: ChatChannel.WING, toSeat: false },
    ];
  }
  return [
    { key: "all", label: "Everyone", channel: ChatChannel.ALL, toSeat: false },
    { key: "side", label: "My side", channel: ChatChannel.SIDE, toSeat: false },
    { key: "wing", label: "Wing notes (me and the umpire)", channel: ChatChannel.WING, toSeat: false },
    { key: "umpire", label: "The umpire (private)", channel: ChatChannel.UMPIRE, toSeat: false },
  ];
}

export function channelLabel(m: ChatMessage): string {
  switch (m.channel) {
    case ChatChannel.ALL:
      return "all";
    case ChatChannel.SIDE:
      return m.side ? `side ${m.side}` : "side";
    case ChatChannel.WING:
      return "notes";
    case ChatChannel.UMPIRE:
      return m.toSeat ? `to ${m.toSeat}` : "to the umpire";
    default:
      return `channel ${m.channel}`;
  }
}

// ---- Deadlines ----

// "2 h 05 min", "4 min 09 s", "12 s", "passed": how long until the deadline.
export function countdown(deadlineUnix: number, nowMs: number): string {
  if (!deadlineUnix) return "";
  const left = Math.floor(deadlineUnix - nowMs / 1000);
  if (left <= 0) return "passed";
  const d = Math.floor(left / 86400);
  const h = Math.floor((left % 86400) / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = left % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${pad(m)} min`;
  if (m > 0) return `${m} min ${pad(s)} s`;
  return `${s} s`;
}

// The words a notice kind is shown under.
export const NOTICE_TITLE: Record<string, string> = {
  paused: "Paused",
  resumed: "Resumed",
  deadline: "Deadline",
  defaulted: "Defaulted",
  broadcast: "From the umpire",
  ended: "Game over",
  rewound: "Rewound",
  forced: "Step forced",
  bot_seat: "Bot seat",
  edited: "State edited",
  reopened: "Step reopened",
};
