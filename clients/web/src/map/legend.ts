// The key to the map: the terrain kinds present on this table, the ways a
// unit can be known, and the markers of the statuses units have now.
import { Knowledge, TerrainKind, type GameView } from "@gen/galloper/v1/game_pb";
import type { Vocabulary } from "../game/ruleset";
import { h, s } from "../ui/dom";
import { statusGlyph } from "./markers";
import { KNOWLEDGE_CLASS, KNOWLEDGE_LABEL, hillFill, sideColour, terrainStyle } from "./style";

function swatch(kind: TerrainKind): SVGSVGElement {
  const st = terrainStyle(kind);
  const svg = s("svg", { class: "swatch", viewBox: "0 0 3 2", width: 30, height: 20, "aria-hidden": "true" });
  const linear = st.layer >= 3 && kind !== TerrainKind.BRIDGE && kind !== TerrainKind.FORD;
  if (linear) {
    svg.append(s("polyline", { class: `terrain-feature ${st.cls}`, points: "0.1,1.4 1.5,0.7 2.9,1.1", "stroke-width": Math.min(0.8, st.width) }));
  } else if (kind === TerrainKind.BRIDGE || kind === TerrainKind.FORD) {
    svg.append(s("rect", { class: "terrain-feature t-river", x: 0, y: 0.6, width: 3, height: 0.8 }));
    svg.append(s("rect", { class: `terrain-feature ${st.cls}`, x: 1, y: 0.3, width: 1, height: 1.4 }));
  } else {
    const poly = s("polygon", { class: `terrain-feature ${st.cls}`, points: "0.2,1.8 0.5,0.3 2.6,0.2 2.8,1.7" });
    if (kind === TerrainKind.HILL) poly.style.fill = hillFill(1, 2);
    svg.append(poly);
  }
  return svg;
}

function unitSwatch(knowledge: Knowledge, colour: string): SVGSVGElement {
  const cls = KNOWLEDGE_CLASS[knowledge];
  const g = s("g", { class: `unit ${cls} brigade` });
  g.style.setProperty("--side", colour);
  g.append(s("polygon", { class: "base", points: "0.3,0.6 2.7,0.6 2.7,1.5 0.3,1.5" }));
  g.append(s("polyline", { class: "front", points: "0.3,0.6 2.7,0.6" }));
  return s("svg", { class: "swatch", viewBox: "0 0 3 2", width: 30, height: 20, "aria-hidden": "true" }, g);
}

// The statuses of the units in view, once each, in the order first met.
export function statusesInView(view: Pick<GameView, "units">): string[] {
  return [...new Set(view.units.flatMap((u) => u.status.filter((k) => k.trim() !== "")))];
}

export function renderLegend(view: GameView, words?: Vocabulary): HTMLElement {
  const statusLabel = (k: string) => (words ? words.statusLabel(k) : k);
  const kinds = [...new Set(view.terrain.map((t) => t.kind))].sort(
    (a, b) => terrainStyle(a).layer - terrainStyle(b).layer || a - b,
  );
  const own = view.side || view.sides[0]?.id || "";
  const enemy = view.sides.find((x) => x.id !== own)?.id ?? "";
  const ownColour = sideColour(own, view.sides);
  const enemyColour = sideColour(enemy, view.sides);
  const isUmpire = !view.side;

  // The umpire sees every unit as it is: one row per side. A player sees how
  // each unit is known to their seat.
  const unitRows: [Knowledge, string, string][] = isUmpire
    ? view.sides.map((side) => [Knowledge.UMPIRE, sideColour(side.id, view.sides), side.name || side.id])
    : [
        [Knowledge.OWN, ownColour, KNOWLEDGE_LABEL[Knowledge.OWN]],
        [Knowledge.FRIENDLY, ownColour, KNOWLEDGE_LABEL[Knowledge.FRIENDLY]],
        [Knowledge.SEEN, enemyColour, KNOWLEDGE_LABEL[Knowledge.SEEN]],
        [Knowledge.LAST_SEEN, enemyColour, KNOWLEDGE_LABEL[Knowledge.LAST_SEEN]],
      ];

  return h(
    "details",
    { class: "legend", open: true },
    h("summary", {}, "Key"),
    h(
      "ul",
      { class: "legend-units" },
      ...(isUmpire
        ? []
        : view.sides.map((side) =>
            h("li", {}, h("span", { class: "side-chip", style: `background:${sideColour(side.id, view.sides)}` }), `${side.name || side.id}${side.attacker ? " (attacker)" : ""}`),
          )),
      ...unitRows.map(([k, colour, label]) => h("li", {}, unitSwatch(k, colour), label)),
      h("li", {}, h("span", { class: "dp-chip" }, "2"), "Disorder points (DPs)"),
      ...statusesInView(view).map((k) =>
        h("li", { "data-status": k }, h("span", { class: "status-chip" }, statusGlyph(k, statusLabel(k))), statusLabel(k)),
      ),
    ),
    kinds.length > 0
      ? h("ul", { class: "legend-terrain" }, ...kinds.map((k) => h("li", {}, swatch(k), terrainStyle(k).label)))
      : null,
  );
}
