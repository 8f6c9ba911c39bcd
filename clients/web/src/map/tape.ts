// The measuring tape: a line laid on the table between two points and its
// length in the ruleset's unit of measure. Purely a measurement for the
// player: nothing is sent. Table coordinates (orientation.ts turns pointer
// positions into them), so the length is the same whichever way up the table
// is drawn.
import type { Vec } from "./geometry";

export interface Tape {
  from: Vec;
  to: Vec;
}

export function tapeLength(t: Tape): number {
  return Math.hypot(t.to.x - t.from.x, t.to.y - t.from.y);
}

// A length as the tape shows it: to a tenth of the unit below 100 of them,
// whole units beyond (a yards table's hundreds of yards).
export function roundLength(n: number): number {
  return n >= 100 ? Math.round(n) : Math.round(n * 10) / 10;
}

// "3.4 inches", "1 inch", "240 yards": `unit(n)` is the ruleset's word for n
// of its units (Vocabulary.unit).
export function lengthLabel(n: number, unit: (n: number) => string): string {
  const r = roundLength(n);
  return `${r} ${unit(r)}`;
}

// The point halfway along the tape, where its label sits.
export function tapeMiddle(t: Tape): Vec {
  return { x: (t.from.x + t.to.x) / 2, y: (t.from.y + t.to.y) / 2 };
}
