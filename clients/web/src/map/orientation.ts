// Which way up the table is drawn, and the one mapping between table
// coordinates and the map's SVG user space that every layer (units, terrain,
// labels, previews) and every pointer position goes through.
//
// Unturned, north is up: svg = (x, depth - y), so y = depth is the top edge
// of the screen and y = 0 the bottom. Turned, the table is rotated 180°
// about its centre: svg = (width - x, y). Only positions are rotated, never
// a drawing as a whole, so text stays upright; the table's rectangle maps
// onto itself, so fitting, zooming and panning are the same either way.
//
// The rule: a player's seat sees its side's own edge at the bottom of the
// screen, as a wargamer stands at their own table edge. The side's edge is
// taken from where its troops stand: the table is turned when the mean y of
// the units of the seat's side is in the half nearest y = depth (the top,
// unturned). The umpire and spectators (a view with no side) see the table
// unturned. Once decided for a seat, the decision is kept (see decideTurn)
// so the map does not flip as an army crosses the middle of the table.
import { Knowledge, type GameView, type UnitView } from "@gen/galloper/v1/game_pb";
import { fmt, type Vec } from "./geometry";

export interface TableFrame {
  width: number;
  depth: number;
  turned: boolean;
}

export function frameOf(view: Pick<GameView, "tableWidth" | "tableDepth">, turned: boolean): TableFrame {
  return { width: view.tableWidth, depth: view.tableDepth, turned };
}

export function toScreen(f: TableFrame, p: Vec): Vec {
  return f.turned ? { x: f.width - p.x, y: p.y } : { x: p.x, y: f.depth - p.y };
}

export function toTable(f: TableFrame, p: Vec): Vec {
  return f.turned ? { x: f.width - p.x, y: p.y } : { x: p.x, y: f.depth - p.y };
}

// A table facing (degrees clockwise from north) as an SVG rotation.
export function screenFacing(f: TableFrame, facingDeg: number): number {
  return f.turned ? (facingDeg + 180) % 360 : facingDeg;
}

// "x,y x,y ..." for an SVG points attribute.
export function screenPoints(f: TableFrame, points: readonly Vec[]): string {
  return points
    .map((p) => {
      const q = toScreen(f, p);
      return `${fmt(q.x)},${fmt(q.y)}`;
    })
    .join(" ");
}

// Where a unit stands: its reference point, else its first base.
function unitAt(u: UnitView): Vec | undefined {
  return u.position ?? u.bases[0]?.center;
}

// The rule above, from this view alone: true to turn, false not to, null
// when the seat's side has no unit in view to tell its edge by.
export function ownEdgeTurned(view: GameView): boolean | null {
  if (!view.side) return false;
  const ys: number[] = [];
  for (const u of view.units) {
    if (u.side !== view.side || u.knowledge === Knowledge.LAST_SEEN) continue;
    const at = unitAt(u);
    if (at) ys.push(at.y);
  }
  if (ys.length === 0) return null;
  const mean = ys.reduce((a, b) => a + b, 0) / ys.length;
  return mean > view.tableDepth / 2;
}

// The turn to draw with: unturned for a view with no side; else the one
// decided earlier for this seat (`remembered`), else the rule's, unturned
// while it cannot tell yet. `keep` is true when the answer is the rule's
// first and should be remembered.
export function decideTurn(view: GameView, remembered: boolean | null): { turned: boolean; keep: boolean } {
  if (!view.side) return { turned: false, keep: false };
  if (remembered !== null) return { turned: remembered, keep: false };
  const rule = ownEdgeTurned(view);
  return rule === null ? { turned: false, keep: false } : { turned: rule, keep: true };
}

// Where a seat's decision is kept across reloads: per game and seat.
export function turnKey(view: Pick<GameView, "gameId" | "seat">): string {
  return `galloper.turned.${view.gameId}.${view.seat}`;
}
