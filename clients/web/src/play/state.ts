// The seat's side of the play protocol as a pure reducer: what it owes at the
// current step, what the server has accepted, what it refused and why, who
// still owes answers, and the events seen so far.
//
// Nothing here judges an answer: a decision counts as answered only when the
// server said AnswerAccepted (or AnswersLocked defaulted it), and a refusal
// carries the server's own words.
import type { Answer, Decision, Event, OrderStep } from "@gen/galloper/v1/game_pb";
import type { DecisionsOwed, EventsSince, SeatStatus, StepResolved } from "@gen/galloper/v1/protocol_pb";
import type { StepField } from "../game/ruleset";

// An order step as the editor holds it: plain fields, `to` split into x/y so
// a half-typed point is representable.
export interface DraftStep {
  action: string;
  distance: number;
  angleDeg: number;
  pivot: string;
  formation: string;
  toX: number;
  toY: number;
  target: string;
}

export interface Answered {
  option: string;
  steps: OrderStep[];
  // Taken by default when the seat locked without answering.
  defaulted: boolean;
}

export interface PlayState {
  gameId: string;
  step: bigint | null; // null until the first DecisionsOwed
  decisions: Decision[];
  answered: Record<string, Answered>; // by decision id: what the server holds
  sending: Record<string, true>; // a SubmitAnswer awaiting its reply
  refused: Record<string, string>; // the server's reason, by decision id
  drafts: Record<string, DraftStep[]>; // order steps being edited, by decision id
  locked: boolean;
  locking: boolean;
  lockError: string;
  defaulted: string[]; // from the last AnswersLocked
  owing: string[]; // seats with decisions at seatStatusStep
  lockedSeats: string[];
  bots: string[]; // seats the server's bot plays now (SeatStatus.bots)
  seatStatusStep: bigint | null;
  events: Event[]; // every event seen, in sequence order
  // What the server said about the open step: a "reopened" notice's text
  // (its answers collided when it resolved) or a pushed error.
  notice: string;
  // How often this step was reopened since the page joined: a lock reply
  // that left the server before a reopen does not lock the page again.
  reopens: number;
}

export function initialPlayState(gameId = ""): PlayState {
  return {
    gameId,
    step: null,
    decisions: [],
    answered: {},
    sending: {},
    refused: {},
    drafts: {},
    locked: false,
    locking: false,
    lockError: "",
    defaulted: [],
    owing: [],
    lockedSeats: [],
    bots: [],
    seatStatusStep: null,
    events: [],
    notice: "",
    reopens: 0,
  };
}

export type PlayAction =
  | { type: "decisions"; owed: DecisionsOwed }
  | { type: "seatStatus"; status: SeatStatus }
  | { type: "submitting"; decisionId: string }
  | { type: "answerAccepted"; decisionId: string; answer: Answer }
  | { type: "answerRefused"; decisionId: string; reason: string }
  | { type: "locking" }
  // `reopens`: the state's count when the lock was sent.
  | { type: "answersLocked"; step: bigint; defaulted: string[]; reopens?: number }
  | { type: "lockRefused"; reason: string; decisionId?: string }
  | { type: "stepResolved"; resolved: StepResolved }
  | { type: "eventsSince"; since: EventsSince }
  | { type: "viewStep"; step: bigint }
  | { type: "rewound"; step: bigint }
  | { type: "reopened"; step: bigint; text: string }
  | { type: "errorPush"; code: string; message: string }
  | { type: "editDraft"; decisionId: string; steps: DraftStep[] };

export function playReducer(state: PlayState, action: PlayAction): PlayState {
  switch (action.type) {
    case "decisions":
      return applyOwed(state, action.owed);
    case "seatStatus": {
      const st = action.status;
      if (state.gameId && st.gameId && st.gameId !== state.gameId) return state;
      // An older status never replaces a newer one.
      if (state.seatStatusStep !== null && st.step < state.seatStatusStep) return state;
      return { ...state, owing: [...st.owing], lockedSeats: [...st.locked], bots: [...st.bots], seatStatusStep: st.step };
    }
    case "submitting":
      return {
        ...state,
        sending: { ...state.sending, [action.decisionId]: true },
        refused: without(state.refused, action.decisionId),
      };
    case "answerAccepted": {
      if (!state.decisions.some((d) => d.id === action.decisionId)) return { ...state, sending: without(state.sending, action.decisionId) };
      const a = action.answer;
      return {
        ...state,
        sending: without(state.sending, action.decisionId),
        refused: without(state.refused, action.decisionId),
        answered: { ...state.answered, [action.decisionId]: { option: a.option, steps: [...a.steps], defaulted: false } },
      };
    }
    case "answerRefused":
      return {
        ...state,
        sending: without(state.sending, action.decisionId),
        refused: { ...state.refused, [action.decisionId]: action.reason },
      };
    case "locking":
      return { ...state, locking: true, lockError: "" };
    case "answersLocked": {
      if (state.step !== null && action.step !== state.step) return { ...state, locking: false };
      // The step reopened after this lock was taken: what the server holds
      // now came with the reopen (DecisionsOwed, locked: false).
      if (action.reopens !== undefined && action.reopens !== state.reopens) return { ...state, locking: false };
      const answered = { ...state.answered };
      for (const id of action.defaulted) {
        const d = state.decisions.find((x) => x.id === id);
        answered[id] = { option: d?.defaultOption ?? "", steps: [], defaulted: true };
      }
      return { ...state, locked: true, locking: false, lockError: "", notice: "", defaulted: [...action.defaulted], answered };
    }
    case "lockRefused": {
      const refused = action.decisionId ? { ...state.refused, [action.decisionId]: action.reason } : state.refused;
      return { ...state, locking: false, lockError: action.reason, refused };
    }
    case "stepResolved": {
      const r = action.resolved;
      if (state.gameId && r.gameId && r.gameId !== state.gameId) return state;
      const events = mergeEvents(state.events, r.events);
      const base = { ...state, events, notice: "" };
      return r.next ? applyOwed(base, r.next) : { ...base, decisions: [], answered: {}, drafts: {}, refused: {}, locked: false };
    }
    case "eventsSince": {
      // After a (re)join: what the seat missed. Events it already has (it saw
      // them before the connection dropped) are not added twice.
      const s = action.since;
      if (state.gameId && s.gameId && s.gameId !== state.gameId) return state;
      const events = mergeEvents(state.events, s.events);
      return events === state.events ? state : { ...state, events };
    }
    case "viewStep":
      // A view whose open step is behind this state's: the umpire rewound the
      // game. What the seat owes (and who owes what) starts again from the
      // DecisionsOwed and SeatStatus that follow; the events stay.
      if (state.step === null || action.step >= state.step) return state;
      return {
        ...initialPlayState(state.gameId),
        events: state.events,
        reopens: state.reopens,
      };
    case "rewound":
      // The umpire rewound to `step`: the events of that step and later ones
      // are undone (the server never sends them again).
      return { ...state, events: state.events.filter((e) => e.step < action.step) };
    case "reopened":
      // Answers collided when the step resolved: every seat answers and locks
      // again. Whether this seat is locked comes with the DecisionsOwed that
      // follows (locked: false, its answers kept); the text says which of its
      // own orders were involved.
      if (state.step !== null && action.step !== 0n && action.step !== state.step) return state;
      return { ...state, notice: action.text, reopens: state.reopens + 1 };
    case "errorPush":
      // An error nobody asked for (the game could not be saved): shown; the
      // seat's answers and lock stand as the server last said.
      return { ...state, notice: `${action.code}: ${action.message}` };
    case "editDraft":
      return { ...state, drafts: { ...state.drafts, [action.decisionId]: action.steps } };
  }
}

function applyOwed(state: PlayState, owed: DecisionsOwed): PlayState {
  if (state.gameId && owed.gameId && owed.gameId !== state.gameId) return state;
  if (state.step !== null && owed.step < state.step) return state;
  const sameStep = state.step !== null && owed.step === state.step;
  const answered: Record<string, Answered> = {};
  for (const a of owed.answers) {
    const prev = sameStep ? state.answered[a.decisionId] : undefined;
    answered[a.decisionId] = { option: a.option, steps: [...a.steps], defaulted: prev?.defaulted ?? false };
  }
  const ids = new Set(owed.decisions.map((d) => d.id));
  const keep = <T>(rec: Record<string, T>): Record<string, T> =>
    sameStep ? Object.fromEntries(Object.entries(rec).filter(([k]) => ids.has(k))) : {};
  // Drafts start from what the server holds for this seat (a reload shows the
  // orders already sent).
  const drafts = keep(state.drafts);
  for (const a of owed.answers) {
    if (!drafts[a.decisionId] && a.steps.length > 0) drafts[a.decisionId] = a.steps.map(draftFromStep);
  }
  return {
    ...state,
    gameId: state.gameId || owed.gameId,
    step: owed.step,
    decisions: [...owed.decisions],
    answered,
    sending: keep(state.sending),
    refused: keep(state.refused),
    drafts,
    locked: owed.locked,
    locking: false,
    lockError: sameStep ? state.lockError : "",
    defaulted: sameStep ? state.defaulted : [],
  };
}

// Events accumulate across steps; a repeated sequence number is dropped.
export function mergeEvents(have: Event[], incoming: readonly Event[]): Event[] {
  if (incoming.length === 0) return have;
  const seen = new Set(have.map((e) => e.sequence));
  const add = incoming.filter((e) => !seen.has(e.sequence) && (seen.add(e.sequence), true));
  if (add.length === 0) return have;
  return [...have, ...add].sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
}

function without<T>(rec: Record<string, T>, key: string): Record<string, T> {
  if (!(key in rec)) return rec;
  const out = { ...rec };
  delete out[key];
  return out;
}

export function emptyDraft(action = "forward"): DraftStep {
  return { action, distance: 0, angleDeg: 0, pivot: "", formation: "", toX: 0, toY: 0, target: "" };
}

// The step turned to another action. What means the same to both (how far,
// to where, at whom, into what formation) is kept when the new action reads
// it; an angle or a side is cleared, as it means another thing to each (a
// wheel's angle is not a forward move's deviation).
export function withAction(step: DraftStep, action: string, reads: readonly StepField[]): DraftStep {
  const out = emptyDraft(action);
  if (reads.includes("distance")) out.distance = step.distance;
  if (reads.includes("formation")) out.formation = step.formation;
  if (reads.includes("target")) out.target = step.target;
  if (reads.includes("to")) {
    out.toX = step.toX;
    out.toY = step.toY;
  }
  return out;
}

export function draftFromStep(s: OrderStep): DraftStep {
  return {
    action: s.action,
    distance: s.distance,
    angleDeg: s.angleDeg,
    pivot: s.pivot,
    formation: s.formation,
    toX: s.to?.x ?? 0,
    toY: s.to?.y ?? 0,
    target: s.target,
  };
}

// ---- Reading the state ----

// A decision's answers go as an option where it lists options and the seat
// picked one; otherwise as order steps.
export function hasOptions(d: Decision): boolean {
  return d.options.length > 0;
}

// The seat's standing at this step, for the panel's headline.
export function seatPhase(state: PlayState): "waiting" | "idle" | "answering" | "locked" {
  if (state.step === null) return "waiting";
  if (state.decisions.length === 0) return "idle";
  return state.locked ? "locked" : "answering";
}

export function unanswered(state: PlayState): Decision[] {
  return state.decisions.filter((d) => !state.answered[d.id]);
}

// Unanswered decisions with no default: locking now would be refused, as the
// decision states (default_option empty). Shown as a hint; the server decides.
export function blockingLock(state: PlayState): Decision[] {
  return unanswered(state).filter((d) => !d.defaultOption);
}

// Decisions whose last order the server refused: locking now keeps the
// answer it held before (or the default), not what the card shows.
export function refusedStanding(state: PlayState): Decision[] {
  return state.decisions.filter((d) => state.refused[d.id] !== undefined);
}

// The decision id a lock refusal names ("decision 'move/b3' (...) has no
// default"), if it is one of ours.
export function decisionNamedIn(message: string, decisions: readonly Decision[]): string | undefined {
  return decisions.find((d) => message.includes(`'${d.id}'`) || message.includes(`"${d.id}"`))?.id;
}

export function seatStanding(state: PlayState, seat: string): "owes" | "locked" | "free" {
  if (!state.owing.includes(seat)) return "free";
  return state.lockedSeats.includes(seat) ? "locked" : "owes";
}

// The seats bar's chips: every seat owing at this step, then the bot's
// seats that owe nothing now (so the bar always says which seats the bot plays).
export interface SeatChip {
  seat: string;
  standing: "owes" | "locked" | "free";
  bot: boolean;
  mine: boolean;
}

export function seatChips(state: PlayState, mySeat: string): SeatChip[] {
  const seats = [...state.owing, ...state.bots.filter((b) => !state.owing.includes(b))];
  return seats.map((seat) => ({ seat, standing: seatStanding(state, seat), bot: state.bots.includes(seat), mine: seat === mySeat }));
}

// Every unit id the server named to this seat outside its view (decision and
// event subjects): the client may show these, as the server sent them.
export function namedIds(state: PlayState): Set<string> {
  const out = new Set<string>();
  for (const d of state.decisions) for (const s of d.subjects) out.add(s);
  for (const e of state.events) for (const s of e.subjects) out.add(s);
  return out;
}
