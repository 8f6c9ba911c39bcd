// Builds the SVG layers of the table from a GameView: terrain and units, to
// scale, in SVG user units = table units (y flipped so north is up).
import {
  Knowledge,
  TerrainKind,
  UnitKind,
  type GameView,
  type TerrainView,
  type UnitView,
} from "@gen/galloper/v1/game_pb";
import { s } from "../ui/dom";
import {
  centroid,
  facingVector,
  fmt,
  rectCorners,
  rightVector,
  svgPoints,
  type Vec,
} from "./geometry";
import {
  KNOWLEDGE_CLASS,
  KNOWLEDGE_LABEL,
  UNIT_KIND_LABEL,
  hillFill,
  sideColour,
  statusBadge,
  terrainStyle,
  unitLayer,
} from "./style";

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

export function drawTable(view: GameView): SVGGElement {
  const w = view.tableWidth;
  const d = view.tableDepth;
  const g = s("g", { class: "table" });
  g.append(s("rect", { class: "table-cloth", x: 0, y: 0, width: fmt(w), height: fmt(d) }));
  // A faint grid: every 6 units, stronger every 12.
  const grid = s("g", { class: "grid", "aria-hidden": "true" });
  for (let x = 6; x < w; x += 6) {
    grid.append(s("line", { x1: x, y1: 0, x2: x, y2: fmt(d), class: x % 12 === 0 ? "major" : "minor" }));
  }
  for (let y = 6; y < d; y += 6) {
    const sy = fmt(d - y);
    grid.append(s("line", { x1: 0, y1: sy, x2: fmt(w), y2: sy, class: y % 12 === 0 ? "major" : "minor" }));
  }
  g.append(grid);
  return g;
}

export function drawTerrain(view: GameView): SVGGElement {
  const d = view.tableDepth;
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
    const el = drawFeature(t, d, maxElevation);
    if (el) layer.append(el);
    if (t.name && t.closed && t.outline.length >= 3) {
      const c = centroid(t.outline);
      labels.append(s("text", { class: "t-label", x: fmt(c.x), y: fmt(d - c.y) }, t.name));
    }
  }
  layer.append(labels);
  return layer;
}

function drawFeature(t: TerrainView, depth: number, maxElevation: number): SVGElement | null {
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
    const p = pts[0]!;
    const size = style.width;
    return s(
      "rect",
      { ...attrs, x: fmt(p.x - size / 2), y: fmt(depth - p.y - size / 2), width: fmt(size), height: fmt(size) },
      title,
    );
  }
  if (t.closed && pts.length >= 3) {
    const poly = s("polygon", { ...attrs, points: svgPoints(pts, depth) }, title);
    if (t.kind === TerrainKind.HILL) poly.style.fill = hillFill(t.elevation, maxElevation);
    return poly;
  }
  const line = s("polyline", { ...attrs, points: svgPoints(pts, depth), "stroke-width": fmt(style.width) }, title);
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
export function drawUnits(view: GameView, selectedId: string | null): SVGGElement {
  const layer = s("g", { class: "units" });
  const units = [...view.units].sort((a, b) => unitLayer(a.kind, a.knowledge) - unitLayer(b.kind, b.knowledge));
  for (const u of units) layer.append(drawUnit(u, view, u.id === selectedId));
  return layer;
}

export function drawUnit(u: UnitView, view: GameView, selected: boolean): SVGGElement {
  const depth = view.tableDepth;
  const knowledge = KNOWLEDGE_CLASS[u.knowledge] ?? "unknown";
  const kind = (UNIT_KIND_LABEL[u.kind] ?? "Unit").toLowerCase();
  const g = s("g", {
    class: `unit ${knowledge} ${kind}${selected ? " selected" : ""}`,
    "data-unit-id": u.id,
    "data-knowledge": knowledge,
    "data-side": u.side,
    "data-kind": kind,
    tabindex: 0,
    role: "button",
    "aria-label": unitSummary(u),
    "aria-pressed": selected ? "true" : "false",
  });
  g.style.setProperty("--side", sideColour(u.side, view.sides));
  g.append(s("title", {}, unitSummary(u)));

  const isStand = u.kind === UnitKind.LEADER || u.kind === UnitKind.MESSENGER;
  const footprint: Vec[] = [];
  if (u.bases.length > 0) {
    for (const b of u.bases) {
      const corners = rectCorners(b);
      footprint.push(...corners);
      g.append(s("polygon", { class: isStand ? "stand" : "base", points: svgPoints(corners, depth) }));
      // The front edge, drawn heavier so facing reads at a glance.
      g.append(s("polyline", { class: "front", points: svgPoints([corners[0], corners[1]], depth) }));
    }
  } else {
    // No footprint known (e.g. a leader or a ghost reported by position only).
    const p = u.position ?? { x: 0, y: 0 };
    const size = isStand ? 0.8 : 1.2;
    const corners = rectCorners({ center: p, width: size, depth: size * 0.6, facingDeg: u.facingDeg });
    footprint.push(...corners);
    g.append(s("polygon", { class: isStand ? "stand" : "base", points: svgPoints(corners, depth) }));
    g.append(s("polyline", { class: "front", points: svgPoints([corners[0], corners[1]], depth) }));
  }

  const centre = centroid(footprint);
  if (isStand) {
    g.append(s("circle", { class: "stand-pip", cx: fmt(centre.x), cy: fmt(depth - centre.y), r: 0.18 }));
  }
  if (u.kind === UnitKind.GUN) {
    const f = facingVector(u.facingDeg);
    const tip = { x: centre.x + f.x * 0.9, y: centre.y + f.y * 0.9 };
    g.append(s("polyline", { class: "barrel", points: svgPoints([centre, tip], depth) }));
  }

  if (u.dps > 0) g.append(drawDps(u, footprint, depth));
  const badges = u.status.map(statusBadge).filter((b) => b.length > 0);
  if (u.knowledge === Knowledge.LAST_SEEN && u.lastSeenTurn > 0) badges.push(`T${u.lastSeenTurn}`);
  if (badges.length > 0) g.append(drawBadges(u, badges, footprint, depth));

  // Names appear when zoomed in (CSS hides .unit-label at low zoom).
  const label = u.name || u.id;
  g.append(
    s("text", { class: "unit-label", x: fmt(centre.x), y: fmt(depth - centre.y), "aria-hidden": "true" }, label),
  );
  return g;
}

// DP markers: one dot per DP, in a row behind the unit's rear edge.
function drawDps(u: UnitView, footprint: Vec[], depth: number): SVGGElement {
  const g = s("g", { class: "dps", "data-dps": u.dps });
  const f = facingVector(u.facingDeg);
  const r = rightVector(u.facingDeg);
  const c = centroid(footprint);
  // Rearmost extent of the footprint along the facing.
  const back = Math.min(...footprint.map((p) => (p.x - c.x) * f.x + (p.y - c.y) * f.y));
  const spacing = 0.42;
  const start = -((u.dps - 1) * spacing) / 2;
  for (let i = 0; i < u.dps; i++) {
    const along = start + i * spacing;
    const p = { x: c.x + f.x * (back - 0.35) + r.x * along, y: c.y + f.y * (back - 0.35) + r.y * along };
    g.append(s("circle", { class: "dp", cx: fmt(p.x), cy: fmt(depth - p.y), r: 0.15 }));
  }
  return g;
}

// Status badges ahead of the unit's front (DP dots sit behind it), upright
// whatever the facing.
function drawBadges(u: UnitView, badges: string[], footprint: Vec[], depth: number): SVGGElement {
  const f = facingVector(u.facingDeg);
  const c = centroid(footprint);
  const front = Math.max(...footprint.map((p) => (p.x - c.x) * f.x + (p.y - c.y) * f.y));
  const text = badges.join(" · ");
  const width = 0.42 * text.length + 0.4;
  const height = 0.8;
  // Far enough ahead that the badge box clears the front edge at any facing.
  const reach = front + 0.25 + Math.abs(f.x) * (width / 2) + Math.abs(f.y) * (height / 2);
  const at = { x: c.x + f.x * reach, y: c.y + f.y * reach };
  const x = at.x - width / 2;
  const y = depth - at.y - height / 2;
  return s(
    "g",
    { class: "badges" },
    s("rect", { x: fmt(x), y: fmt(y), width: fmt(width), height: fmt(height), rx: 0.25 }),
    s("text", { x: fmt(at.x), y: fmt(y + 0.6) }, text),
  );
}

export function unitSummary(u: UnitView): string {
  const kind = UNIT_KIND_LABEL[u.kind] ?? "Unit";
  const who = u.name || u.id;
  const parts = [`${who} (${kind.toLowerCase()}, ${u.side || "unknown side"})`, KNOWLEDGE_LABEL[u.knowledge] ?? ""];
  if (u.formation) parts.push(u.formation);
  if (u.dps > 0) parts.push(`${u.dps} DP`);
  if (u.status.length > 0) parts.push(u.status.join(", "));
  if (u.knowledge === Knowledge.LAST_SEEN && u.lastSeenTurn > 0) parts.push(`last seen turn ${u.lastSeenTurn}`);
  return parts.filter(Boolean).join(" — ");
}
