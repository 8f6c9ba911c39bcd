// The side panel's account of one unit: everything its UnitView carries, in
// the ruleset's words (its formations, statuses and troop types as the
// server named them; a key it did not describe shows as sent).
import { Knowledge, type GameView, type UnitView } from "@gen/galloper/v1/game_pb";
import { KNOWLEDGE_LABEL, UNIT_KIND_LABEL, sideColour } from "../map/style";
import { h } from "./dom";

// The words the panel needs (Vocabulary has them).
export interface UnitWords {
  statusLabel(key: string): string;
  formationLabel(key: string): string;
  troopTypeLabel(key: string): string;
}

export const PLAIN_WORDS: UnitWords = { statusLabel: (k) => k, formationLabel: (k) => k, troopTypeLabel: (k) => k };

export function renderUnitPanel(u: UnitView, view: GameView, words: UnitWords = PLAIN_WORDS): HTMLElement {
  return h(
    "section",
    { class: "unit-panel", "data-unit-id": u.id, "aria-live": "polite" },
    h(
      "h2",
      {},
      h("span", { class: "side-chip", style: `background:${sideColour(u.side, view.sides)}` }),
      u.name || u.id,
    ),
    h("dl", {}, ...unitRows(u, view, words).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
  );
}

/** The panel's rows, label and value, leaving out what the unit's view does not say. */
export function unitRows(u: UnitView, view: GameView, words: UnitWords = PLAIN_WORDS): [string, string][] {
  const side = view.sides.find((x) => x.id === u.side);
  const rows: [string, string | undefined][] = [
    ["Kind", UNIT_KIND_LABEL[u.kind]],
    ["Side", side ? side.name || side.id : u.side],
    ["Known as", KNOWLEDGE_LABEL[u.knowledge]],
    ["Troop type", u.troopType && words.troopTypeLabel(u.troopType)],
    ["Grade", u.grade],
    ["Formation", u.formation && words.formationLabel(u.formation)],
    ["Rank", u.rank],
    ["Bases", u.baseCount ? String(u.baseCount) : u.bases.length ? String(u.bases.length) : undefined],
    ["Disorder points", u.dps || u.knowledge === Knowledge.OWN ? String(u.dps) : undefined],
    ["Status", u.status.length ? u.status.filter(Boolean).map((k) => words.statusLabel(k)).join(", ") : undefined],
    ["Position", u.position ? `${u.position.x.toFixed(1)}, ${u.position.y.toFixed(1)} ${view.unitName || ""}`.trim() : undefined],
    ["Facing", `${Math.round(u.facingDeg)}°`],
    ["Command", u.command],
    ["Wing", u.wing],
    ["Attached to", u.attachedTo ? nameOf(u.attachedTo, view) : undefined],
    // The ruleset's own numbers and qualities, in the words it sent.
    ...u.counters.map((c): [string, string] => [capitalised(c.name), c.max ? `${c.value} of ${c.max}` : String(c.value)]),
    ...u.attributes.map((a): [string, string] => [capitalised(a.name), a.value]),
    ["Last seen", u.knowledge === Knowledge.LAST_SEEN && u.lastSeenTurn ? `turn ${u.lastSeenTurn}` : undefined],
    ["Id", u.id],
  ];
  return rows.filter((r): r is [string, string] => r[1] !== undefined && r[1] !== "");
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function nameOf(id: string, view: GameView): string {
  return view.units.find((u) => u.id === id)?.name || id;
}
