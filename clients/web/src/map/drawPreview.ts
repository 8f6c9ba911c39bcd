// SVG for the move preview (preview.ts): range rings and the front arc under
// the units, the order's ghost footprints and trail over them, placed through
// the map's frame (orientation.ts).
import { s } from "../ui/dom";
import { fmt, rectCorners } from "./geometry";
import { screenFacing, screenPoints, toScreen, type TableFrame } from "./orientation";
import { frontArc, rangeRings, type Placement, type Preview } from "./preview";
import { sideColour } from "./style";

export const RING_RADII = [1, 2, 6] as const;

export function drawRanges(p: Placement, frame: TableFrame): SVGGElement {
  const g = s("g", { class: "ranges", "aria-hidden": "true", "data-testid": "ranges" });
  const arc = frontArc(p, RING_RADII[RING_RADII.length - 1]);
  g.append(s("polygon", { class: "front-arc", points: screenPoints(frame, arc) }));
  for (const r of [...rangeRings(p, RING_RADII)].reverse()) {
    const c = toScreen(frame, r.center);
    g.append(
      s("rect", {
        class: `range-ring r${r.radius}`,
        "data-radius": r.radius,
        x: fmt(c.x - r.width / 2),
        y: fmt(c.y - r.depth / 2),
        width: fmt(r.width),
        height: fmt(r.depth),
        rx: fmt(r.cornerRadius),
        ry: fmt(r.cornerRadius),
        // SVG rotates clockwise on screen, as facings turn on the table.
        transform: `rotate(${fmt(screenFacing(frame, r.facingDeg))} ${fmt(c.x)} ${fmt(c.y)})`,
      }),
    );
    // The label sits on the ring straight ahead of the front.
    const f = { x: Math.sin((r.facingDeg * Math.PI) / 180), y: Math.cos((r.facingDeg * Math.PI) / 180) };
    const reach = r.depth / 2;
    const at = toScreen(frame, { x: r.center.x + f.x * reach, y: r.center.y + f.y * reach });
    g.append(s("text", { class: "range-label", x: fmt(at.x), y: fmt(at.y) }, `${r.radius}″`));
  }
  return g;
}

// The ghost of a planned move is the moving unit's own: its side's colour,
// as the unit itself is drawn (never a fixed colour that may be the enemy's).
export function ghostColour(side: string, sides: readonly { id: string }[]): string {
  return sideColour(side, sides);
}

export function drawGhost(pv: Preview, frame: TableFrame, colour: string): SVGGElement {
  const g = s("g", {
    class: "ghost",
    "aria-hidden": "true",
    "data-testid": "move-preview",
    "data-steps": pv.steps.length,
    "data-colour": colour,
  });
  g.style.setProperty("--side", colour);
  const trail = [pv.start.frontMid, ...pv.steps.flatMap((st) => st.trail.slice(1))];
  pv.steps.forEach((st, i) => {
    const last = i === pv.steps.length - 1;
    const cls = `ghost-step${last ? " final" : ""}`;
    const sg = s("g", { class: cls, "data-step-index": st.index, "data-action": st.action });
    const rects = st.placement.bases.length > 0 ? st.placement.bases : [st.placement.envelope];
    for (const b of rects) {
      const corners = rectCorners(b);
      sg.append(s("polygon", { class: "ghost-base", points: screenPoints(frame, corners) }));
      sg.append(s("polyline", { class: "ghost-front", points: screenPoints(frame, [corners[0], corners[1]]) }));
    }
    if (st.pivotPoint) {
      const p = toScreen(frame, st.pivotPoint);
      sg.append(s("circle", { class: "ghost-pivot", cx: fmt(p.x), cy: fmt(p.y), r: 0.2 }));
    }
    const m = toScreen(frame, st.placement.frontMid);
    sg.append(s("text", { class: "ghost-label", x: fmt(m.x), y: fmt(m.y) }, String(st.index + 1)));
    g.append(sg);
  });
  if (trail.length > 1) g.prepend(s("polyline", { class: "ghost-trail", points: screenPoints(frame, trail) }));
  return g;
}
