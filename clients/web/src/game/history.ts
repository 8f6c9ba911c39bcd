// The event log by turn and phase, for stepping back through the game: one
// page per (turn, phase) in the order they happened, with the steps each
// covers. Grouping only; what each event says is the server's.
import type { Event } from "@gen/galloper/v1/game_pb";

export interface HistoryPage {
  key: string; // "t3/command"
  turn: number;
  phase: string;
  firstStep: bigint;
  lastStep: bigint;
  events: Event[];
  dice: number; // dice rolled on this page
}

// Consecutive events with the same turn and phase share a page; a phase seen
// again later (a new turn, or after a rewind) starts a new page.
export function historyPages(events: readonly Event[]): HistoryPage[] {
  const pages: HistoryPage[] = [];
  let current: HistoryPage | undefined;
  for (const e of events) {
    if (!current || current.turn !== e.turn || current.phase !== e.phase) {
      const base = `t${e.turn}/${e.phase || "-"}`;
      const repeats = pages.filter((p) => p.key === base || p.key.startsWith(`${base}#`)).length;
      current = {
        key: repeats ? `${base}#${repeats + 1}` : base,
        turn: e.turn,
        phase: e.phase,
        firstStep: e.step,
        lastStep: e.step,
        events: [],
        dice: 0,
      };
      pages.push(current);
    }
    current.events.push(e);
    current.dice += e.dice.length;
    if (e.step < current.firstStep) current.firstStep = e.step;
    if (e.step > current.lastStep) current.lastStep = e.step;
  }
  return pages;
}

export function pageTitle(p: HistoryPage): string {
  const steps = p.firstStep === p.lastStep ? `step ${p.firstStep}` : `steps ${p.firstStep}–${p.lastStep}`;
  return `Turn ${p.turn || "—"} · ${p.phase || "—"} · ${steps}`;
}

// Index of the page with `key`, else of the last page (the newest), else -1.
export function pageIndex(pages: readonly HistoryPage[], key: string | null): number {
  if (pages.length === 0) return -1;
  const i = key === null ? -1 : pages.findIndex((p) => p.key === key);
  return i >= 0 ? i : pages.length - 1;
}
