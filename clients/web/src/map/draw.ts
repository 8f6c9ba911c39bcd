// Builds the SVG layers of the table from a GameView: terrain and units, to
// scale, in SVG user units = table units, placed through the map's frame
// (orientation.ts: north up, or the table turned to the seat's own edge).
import {
  Knowledge,
  TerrainKind,
  UnitKind,
  type GameView,
  type TerrainView,
  type UnitView,
} from "@gen/galloper/v1/game_pb";
import { s } from "../ui/dom";
import { centroid, facingVector, fmt, rectCorners, type Vec } from "./geometry";
import { MARKER_PX, layoutRow, unitMarkers, type Marker } from "./markers";
import { screenPoints, toScreen, type TableFrame } from "./orientation";
import {
  KNOWLEDGE_CLASS,
  KNOWLEDGE_LABEL,
  UNIT_KIND_LABEL,
  hillFill,
  sideColour,
  terrainStyle,
  unitLayer,
} from "./style";

// The ruleset's word for a status key (Vocabulary.statusLabel).
export type StatusLabel = (status: string) => string;
const plainStatus: StatusLabel = (k) => k;
// The ruleset's words for a unit's tooltip: its statuses, and where given
// its formations and troop types (Vocabulary has all three).
export type UnitLabels = StatusLabel | { statusLabel: StatusLabel; formationLabel?: (key: string) => string; troopTypeLabel?: (key: string) => string };
function labelsOf(l: UnitLabels): { status: StatusLabel; formation: (k: string) => string; troopType: (k: string) => string } {
  if (typeof l === "function") return { status: l, formation: (k) => k, troopType: (k) => k };
  return { status: (k) => l.statusLabel(k), formation: (k) => l.formationLabel?.(k) ?? k, troopType: (k) => l.troopTypeLabel?.(k) ?? k };
}

// Fill patterns referenced by styles.css (url(#pat-...)).
export function drawDefs(): SVGDefsElement {
  const pattern = (id: string, size: number, ...children: SVGElement[]) =>
    s("pattern", { id, width: size, height: size, patternUnits: "userSpaceOnUse" }, ...children);
  return s(
    "defs",
    {},
    pattern(
      "pat-wood",
      2,
      s("rect", { width: 2, height: 2, fill: "#7fa363" }),
      s("circle", { cx: 0.5, cy: 0.5, r: 0.38, fill: "#4e7a3a" }),
      s("circle", { cx: 1.5, cy: 1.4, r: 0.42, fill: "#4e7a3a" }),
    ),
    pattern(
      "pat-town",
      1.5,
      s("rect", { width: 1.5, height: 1.5, fill: "#c9b9a6" }),
      s("rect", { x: 0.2, y: 0.2, width: 0.6, height: 0.5, fill: "#8c6f5a" }),
    ),
    pattern(
      "pat-marsh",
      1.6,
      s("rect", { width: 1.6, height: 1.6, fill: "#b7cfc0" }),
      s("path", { d: "M0.2 0.5h0.7M0.9 1.2h0.6", stroke: "#4f7f72", "stroke-width": 0.12 }),
    ),
    pattern(
      "pat-rough",
      1.2,
      s("rect", { width: 1.2, height: 1.2, fill: "#d9cfa2" }),
      s("circle", { cx: 0.3, cy: 0.3, r: 0.1, fill: "#8a7a4a" }),
      s("circle", { cx: 0.9, cy: 0.8, r: 0.08, fill: "#8a7a4a" }),
    ),
  );
}

export function drawTable(frame: TableFrame): SVGGElement {
  const w = frame.width;
  const d = frame.depth;
  const g = s("g", { class: "table" });
  // The table's rectangle is the same drawn either way up.
  g.append(s("rect", { class: "table-cloth", x: 0, y: 0, width: fmt(w), height: fmt(d) }));
  // A faint grid: every 6 units, stronger every 12, counted from the table's
  // south-west corner.
  const grid = s("g", { class: "grid", "aria-hidden": "true" });
  const line = (a: Vec, b: Vec, major: boolean) => {
    const p = toScreen(frame, a);
    const q = toScreen(frame, b);
    return s("line", { x1: fmt(p.x), y1: fmt(p.y), x2: fmt(q.x), y2: fmt(q.y), class: major ? "major" : "minor" });
  };
  for (let x = 6; x < w; x += 6) grid.append(line({ x, y: 0 }, { x, y: d }, x % 12 === 0));
  for (let y = 6; y < d; y += 6) grid.append(line({ x: 0, y }, { x: w, y }, y % 12 === 0));
  g.append(grid);
  return g;
}

export function drawTerrain(view: GameView, frame: TableFrame): SVGGElement {
  const layer = s("g", { class: "terrain" });
  const maxElevation = Math.max(0, ...view.terrain.filter((t) => t.kind === TerrainKind.HILL).map((t) => t.elevation));
  const features = [...view.terrain].sort((a, b) => {
    const la = terrainStyle(a.kind).layer;
    const lb = terrainStyle(b.kind).layer;
    if (la !== lb) return la - lb;
    // Higher hills on top of lower ones.
    return a.elevation - b.elevation;
  });
  const labels = s("g", { class: "terrain-labels", "aria-hidden": "true" });
  for (const t of features) {
    const el = drawFeature(t, frame, maxElevation);
    if (el) layer.append(el);
    if (t.name && t.closed && t.outline.length >= 3) {
      const c = toScreen(frame, centroid(t.outline));
      labels.append(s("text", { class: "t-label", x: fmt(c.x), y: fmt(c.y) }, t.name));
    }
  }
  layer.append(labels);
  return layer;
}

function drawFeature(t: TerrainView, frame: TableFrame, maxElevation: number): SVGElement | null {
  const style = terrainStyle(t.kind);
  const attrs = {
    class: `terrain-feature ${style.cls}${t.steep ? " steep" : ""}${t.major ? " major" : ""}`,
    "data-terrain-id": t.id,
    "data-terrain-kind": style.cls.slice(2),
  };
  const title = s("title", {}, describeTerrain(t));
  const pts = t.outline;
  if (pts.length === 0) return null;

  // A crossing given as a single point: a small marker across the water.
  if (pts.length === 1) {
    const p = toScreen(frame, pts[0]!);
    const size = style.width;
    return s(
      "rect",
      { ...attrs, x: fmt(p.x - size / 2), y: fmt(p.y - size / 2), width: fmt(size), height: fmt(size) },
      title,
    );
  }
  if (t.closed && pts.length >= 3) {
    const poly = s("polygon", { ...attrs, points: screenPoints(frame, pts) }, title);
    if (t.kind === TerrainKind.HILL) poly.style.fill = hillFill(t.elevation, maxElevation);
    return poly;
  }
  const line = s("polyline", { ...attrs, points: screenPoints(frame, pts), "stroke-width": fmt(style.width) }, title);
  return line;
}

export function describeTerrain(t: TerrainView): string {
  const parts = [t.name || terrainStyle(t.kind).label];
  if (t.name) parts.push(`(${terrainStyle(t.kind).label.toLowerCase()})`);
  if (t.kind === TerrainKind.HILL) parts.push(`elevation ${t.elevation}${t.steep ? ", steep" : ", gentle"}`);
  if (t.major) parts.push("major obstacle");
  return parts.join(" ");
}

// Sorted for drawing: ghosts first, then troops, then leaders.
export function drawUnits(view: GameView, selectedId: string | null, frame: TableFrame, label: UnitLabels = plainStatus): SVGGElement {
  const layer = s("g", { class: "units" });
  const units = [...view.units].sort((a, b) => unitLayer(a.kind, a.knowledge) - unitLayer(b.kind, b.knowledge));
  for (const u of units) layer.append(drawUnit(u, view, u.id === selectedId, frame, label));
  return layer;
}

const isStand = (u: UnitView) => u.kind === UnitKind.LEADER || u.kind === UnitKind.MESSENGER;

// A unit's rectangles on the table: its bases, or, with no footprint known
// (a leader, or a ghost reported by position only), a small stand.
export function unitRects(u: UnitView): [Vec, Vec, Vec, Vec][] {
  if (u.bases.length > 0) return u.bases.map((b) => rectCorners(b));
  const p = u.position ?? { x: 0, y: 0 };
  const size = isStand(u) ? 0.8 : 1.2;
  return [rectCorners({ center: p, width: size, depth: size * 0.6, facingDeg: u.facingDeg })];
}

export function drawUnit(u: UnitView, view: GameView, selected: boolean, frame: TableFrame, label: UnitLabels = plainStatus): SVGGElement {
  const knowledge = KNOWLEDGE_CLASS[u.knowledge] ?? "unknown";
  const kind = (UNIT_KIND_LABEL[u.kind] ?? "Unit").toLowerCase();
  const summary = unitSummary(u, label, view.sides.find((x) => x.id === u.side)?.name || u.side);
  const g = s("g", {
    class: `unit ${knowledge} ${kind}${selected ? " selected" : ""}`,
    "data-unit-id": u.id,
    "data-knowledge": knowledge,
    "data-side": u.side,
    "data-kind": kind,
    tabindex: 0,
    role: "button",
    "aria-label": summary,
    "aria-pressed": selected ? "true" : "false",
  });
  g.style.setProperty("--side", sideColour(u.side, view.sides));
  g.append(s("title", {}, summary));

  const stand = isStand(u);
  const footprint: Vec[] = [];
  for (const corners of unitRects(u)) {
    footprint.push(...corners);
    g.append(s("polygon", { class: stand ? "stand" : "base", points: screenPoints(frame, corners) }));
    // The front edge, drawn heavier so facing reads at a glance.
    g.append(s("polyline", { class: "front", points: screenPoints(frame, [corners[0], corners[1]]) }));
  }

  const centre = centroid(footprint);
  if (stand) {
    const c = toScreen(frame, centre);
    g.append(s("circle", { class: "stand-pip", cx: fmt(c.x), cy: fmt(c.y), r: 0.18 }));
  }
  if (u.kind === UnitKind.GUN) {
    const f = facingVector(u.facingDeg);
    const tip = { x: centre.x + f.x * 0.9, y: centre.y + f.y * 0.9 };
    g.append(s("polyline", { class: "barrel", points: screenPoints(frame, [centre, tip]) }));
  }

  const markers = unitMarkers(u, labelsOf(label).status);
  if (markers.length > 0) g.append(drawMarkers(markers));

  // The name; the map places it (or leaves it out) where it clutters nothing.
  const c = toScreen(frame, centre);
  g.append(s("text", { class: "unit-label", x: fmt(c.x), y: fmt(c.y), "aria-hidden": "true" }, u.name || u.id));
  return g;
}

// The unit's markers as one row, drawn in screen pixels about (0, 0) with
// its bottom edge at y = 0: the map moves and scales the row over the unit
// (transform), so it reads the same at any zoom. Each has its own tooltip.
function drawMarkers(markers: Marker[]): SVGGElement {
  const { slots, width } = layoutRow(markers.map((m) => m.width));
  const row = s("g", { class: "markers", "data-width": fmt(width), "data-height": MARKER_PX });
  const r = MARKER_PX / 2;
  markers.forEach((m, i) => {
    const slot = slots[i]!;
    const cx = slot.x + slot.width / 2;
    const shape =
      slot.width > MARKER_PX
        ? s("rect", { x: fmt(slot.x), y: -MARKER_PX, width: fmt(slot.width), height: MARKER_PX, rx: r })
        : s("circle", { cx: fmt(cx), cy: -r, r });
    const attrs =
      m.kind === "dps"
        ? { class: "marker dps", "data-dps": m.key }
        : m.kind === "status"
          ? { class: "marker status", "data-status": m.key }
          : { class: "marker last-seen-turn", "data-turn": m.key };
    if (m.kind === "dps") shape.setAttribute("class", "dp");
    row.append(
      s("g", attrs, s("title", {}, m.title), shape, s("text", { x: fmt(cx), y: -r, "aria-hidden": "true" }, m.text)),
    );
  });
  return row;
}

// The unit's tooltip and accessible name. `sideName` is the side's name as
// the view gives it (GameView.sides), its id when it has none.
export function unitSummary(u: UnitView, label: UnitLabels = plainStatus, sideName = u.side): string {
  const words = labelsOf(label);
  const kind = UNIT_KIND_LABEL[u.kind] ?? "Unit";
  const who = u.name || u.id;
  const parts = [`${who} (${kind.toLowerCase()}, ${sideName || "unknown side"})`, KNOWLEDGE_LABEL[u.knowledge] ?? ""];
  if (u.troopType) parts.push(words.troopType(u.troopType));
  if (u.formation) parts.push(words.formation(u.formation));
  if (u.dps > 0) parts.push(`${u.dps} DP`);
  const statuses = u.status.filter(Boolean);
  if (statuses.length > 0) parts.push(statuses.map(words.status).join(", "));
  if (u.knowledge === Knowledge.LAST_SEEN && u.lastSeenTurn > 0) parts.push(`last seen turn ${u.lastSeenTurn}`);
  return parts.filter(Boolean).join(" — ");
}
