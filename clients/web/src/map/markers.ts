// The markers drawn over a unit on the map: its DPs as one numbered pip and
// each status as a small glyph whose tooltip is the ruleset's word for it.
// Laid out here in screen pixels, as one row centred on the unit; draw.ts
// turns them into SVG and the map scales the row to stay the same size on
// screen at any zoom.
import { Knowledge, type UnitView } from "@gen/galloper/v1/game_pb";

export const MARKER_PX = 15; // a pip's or a glyph's diameter
export const MARKER_GAP_PX = 2;
const CHAR_PX = 6.5; // a character of the markers' 10px bold text, near enough

// A glyph for the status words rulesets commonly use. Only a picture: the
// text a player reads is the ruleset's label, in the tooltip. A status the
// table does not know is drawn as its label's first letter.
const STATUS_GLYPHS: Record<string, string> = {
  halted: "‖",
  inspired: "★",
  charging: "»",
  "failed charge": "⊘",
  evading: "↺",
  retiring: "◂",
  routing: "⇓",
  pursuing: "⇑",
  looting: "$",
  "in combat": "✕",
  moved: "→",
  "under fire": "◎",
  fired: "✶",
  abandoned: "○",
  "crew eliminated": "⊗",
  destroyed: "✖",
  surrendered: "⚐",
  limbered: "⇆",
  wounded: "✚",
  disordered: "≈",
  shaken: "∿",
  steady: "▣",
  broken: "⨯",
};

export function statusGlyph(key: string, label: string): string {
  const known = STATUS_GLYPHS[key.trim().toLowerCase()];
  if (known) return known;
  const first = [...(label.trim() || key.trim())][0] ?? "?";
  return first.toUpperCase();
}

export interface Marker {
  kind: "dps" | "status" | "last-seen";
  key: string; // the status key; the DP count; the turn last seen
  text: string; // what is drawn
  title: string; // the tooltip: the words a player reads
  width: number; // px
}

// What to mark on a unit, in the order drawn: DPs first, then its statuses
// in the server's order, then when a ghost was last seen. `label` gives the
// ruleset's word for a status key.
export function unitMarkers(u: UnitView, label: (status: string) => string): Marker[] {
  const out: Marker[] = [];
  if (u.dps > 0) {
    const text = String(u.dps);
    out.push({ kind: "dps", key: text, text, title: `${u.dps} DP`, width: textWidth(text) });
  }
  for (const key of u.status) {
    if (!key.trim()) continue;
    const title = label(key);
    out.push({ kind: "status", key, text: statusGlyph(key, title), title, width: MARKER_PX });
  }
  if (u.knowledge === Knowledge.LAST_SEEN && u.lastSeenTurn > 0) {
    const text = `T${u.lastSeenTurn}`;
    out.push({ kind: "last-seen", key: String(u.lastSeenTurn), text, title: `Last seen on turn ${u.lastSeenTurn}`, width: textWidth(text) });
  }
  return out;
}

// A pip grows to fit a number of two or more digits.
function textWidth(text: string): number {
  return Math.max(MARKER_PX, Math.ceil(text.length * CHAR_PX + 6));
}

export interface RowSlot {
  x: number; // left edge, px from the row's centre
  width: number;
}

// Markers side by side, `gap` apart, the row centred on 0: none overlaps.
export function layoutRow(widths: readonly number[], gap = MARKER_GAP_PX): { slots: RowSlot[]; width: number } {
  const width = widths.reduce((a, w) => a + w, 0) + gap * Math.max(0, widths.length - 1);
  const slots: RowSlot[] = [];
  let x = -width / 2;
  for (const w of widths) {
    slots.push({ x, width: w });
    x += w + gap;
  }
  return { slots, width };
}
