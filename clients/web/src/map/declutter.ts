// Where each unit's name goes on screen so that no two names overlap: a
// deterministic pass over boxes in screen pixels, the most wanted names
// placed first. Each name tries a few places around its unit (below, above,
// right, left); it takes the first that overlaps no name already placed and
// no marker row ("hard" boxes), preferring one that also keeps off other
// units' bodies ("soft" boxes); a name with no free place is not shown.
import { Knowledge, type UnitView } from "@gen/galloper/v1/game_pb";

// Screen pixels, y down.
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface LabelRequest {
  id: string;
  priority: number; // lower is placed first
  order: number; // ties broken by it (the view's order), so the result is stable
  width: number;
  height: number;
  around: Box; // the unit on screen
}

export const LABEL_FONT_PX = 11;
const LABEL_CHAR_PX = 6.2; // an average character of the 11px label font
const LABEL_GAP_PX = 2;

// Own units first, then the selected one, then the rest, enemy ghosts last.
export function labelPriority(u: Pick<UnitView, "id" | "knowledge">, selectedId: string | null): number {
  if (u.knowledge === Knowledge.OWN) return 0;
  if (u.id === selectedId) return 1;
  if (u.knowledge === Knowledge.LAST_SEEN) return 3;
  return 2;
}

// A name's box, estimated from its length: measuring text would need a
// laid-out page and would differ between fonts, this does not.
export function labelSize(text: string): { width: number; height: number } {
  return { width: Math.ceil([...text].length * LABEL_CHAR_PX) + 4, height: LABEL_FONT_PX + 3 };
}

export function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function candidates(r: LabelRequest, gap: number): Box[] {
  const { around: u, width: w, height: h } = r;
  const cx = u.x + u.w / 2 - w / 2;
  const cy = u.y + u.h / 2 - h / 2;
  return [
    { x: cx, y: u.y + u.h + gap, w, h }, // below
    { x: cx, y: u.y - gap - h, w, h }, // above
    { x: u.x + u.w + gap, y: cy, w, h }, // right
    { x: u.x - gap - w, y: cy, w, h }, // left
  ];
}

// Each name's box, or null where it is dropped. `soft` holds every unit's
// box; a unit's own box never counts against its name.
export function declutterLabels(
  requests: readonly LabelRequest[],
  hard: readonly Box[] = [],
  soft: readonly { id: string; box: Box }[] = [],
  gap = LABEL_GAP_PX,
): Map<string, Box | null> {
  const out = new Map<string, Box | null>();
  const placed: Box[] = [];
  const ordered = [...requests].sort((a, b) => a.priority - b.priority || a.order - b.order);
  for (const r of ordered) {
    const free = candidates(r, gap).filter((c) => !placed.some((p) => overlaps(c, p)) && !hard.some((p) => overlaps(c, p)));
    const clear = free.find((c) => !soft.some((s) => s.id !== r.id && overlaps(c, s.box)));
    const box = clear ?? free[0] ?? null;
    if (box) placed.push(box);
    out.set(r.id, box);
  }
  return out;
}
