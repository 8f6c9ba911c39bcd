// What this seat owes now, read from what the page already holds: the
// decisions the server sent it (the umpire is sent every seat's, and owes
// only its own) and the verdicts on its answers. Pure: the "owe" bar and
// the orders panel's headline read it.
import type { Decision, GameView } from "@gen/galloper/v1/game_pb";
import type { PlayState } from "./state";

// A decision is the seat's own when the server addressed it to that seat.
// One without a seat (an older server) is taken as the seat's own: the page
// was sent it as owed.
export function isOwnDecision(d: Decision, seat: string): boolean {
  return !d.seat || d.seat === seat;
}

export function ownDecisions(state: PlayState, seat: string): Decision[] {
  return state.decisions.filter((d) => isOwnDecision(d, seat));
}

// The play state as the seat's own answers see it: other seats' decisions
// (shown to the umpire, read-only) owe this seat nothing and never block its lock.
export function ownState(state: PlayState, seat: string): PlayState {
  const own = ownDecisions(state, seat);
  return own.length === state.decisions.length ? state : { ...state, decisions: own };
}

// "sending": an answer awaits the server's verdict. "refused": the server
// refused the last one sent (whatever it held before still stands).
// "defaulted": the lock took its default. "answered": the server accepted one.
export type OwedStatus = "unanswered" | "sending" | "answered" | "refused" | "defaulted";

export interface OwedEntry {
  decisionId: string;
  label: string;
  status: OwedStatus;
}

export interface OwedSummary {
  step: bigint | null;
  locked: boolean;
  entries: OwedEntry[];
  counts: Record<OwedStatus, number>;
}

export function owedStatus(state: PlayState, id: string): OwedStatus {
  if (state.sending[id]) return "sending";
  if (state.refused[id] !== undefined) return "refused";
  const a = state.answered[id];
  if (!a) return "unanswered";
  return a.defaulted ? "defaulted" : "answered";
}

// A decision named as briefly as a strip allows: the ruleset's word for its
// kind and the name of its first subject ("Fire: Blue battery"), else its
// prompt. `kindLabel` is the ruleset's (Vocabulary.decisionLabel).
export function shortLabel(d: Decision, view: GameView | null, kindLabel: (kind: string) => string): string {
  const subject = d.subjects[0];
  const name = subject ? view?.units.find((u) => u.id === subject)?.name : undefined;
  const kind = d.kind ? kindLabel(d.kind) : "";
  if (name) return kind && kind !== d.kind ? `${kind}: ${name}` : name;
  return d.prompt || (kind !== d.kind ? kind : "") || d.id;
}

export function owedSummary(state: PlayState, seat: string, view: GameView | null, kindLabel: (kind: string) => string): OwedSummary {
  const counts: Record<OwedStatus, number> = { unanswered: 0, sending: 0, answered: 0, refused: 0, defaulted: 0 };
  const entries = ownDecisions(state, seat).map((d) => {
    const status = owedStatus(state, d.id);
    counts[status]++;
    return { decisionId: d.id, label: shortLabel(d, view, kindLabel), status };
  });
  return { step: state.step, locked: state.locked, entries, counts };
}

// The strip's sentence: how many decisions, and how they stand.
export function owedHeadline(s: OwedSummary): string {
  if (s.step === null) return "Waiting for the server…";
  const n = s.entries.length;
  if (n === 0) return `You owe nothing at step ${s.step}.`;
  const c = s.counts;
  const parts = [
    c.unanswered ? `${c.unanswered} unanswered` : "",
    c.sending ? `${c.sending} sending` : "",
    c.refused ? `${c.refused} refused` : "",
    c.answered ? `${c.answered} answered` : "",
    c.defaulted ? `${c.defaulted} defaulted` : "",
  ].filter(Boolean);
  const owe = `Step ${s.step}: you owe ${n} decision${n === 1 ? "" : "s"}`;
  return s.locked ? `${owe}, locked.` : `${owe}: ${parts.join(", ")}.`;
}
