// SVG for the move preview (preview.ts): range rings and the front arc under
// the units, the order's ghost footprints and trail over them.
import { s } from "../ui/dom";
import { fmt, rectCorners, svgPoints } from "./geometry";
import { frontArc, rangeRings, type Placement, type Preview } from "./preview";

export const RING_RADII = [1, 2, 6] as const;

export function drawRanges(p: Placement, tableDepth: number): SVGGElement {
  const g = s("g", { class: "ranges", "aria-hidden": "true", "data-testid": "ranges" });
  const arc = frontArc(p, RING_RADII[RING_RADII.length - 1]);
  g.append(s("polygon", { class: "front-arc", points: svgPoints(arc, tableDepth) }));
  for (const r of [...rangeRings(p, RING_RADII)].reverse()) {
    const cx = r.center.x;
    const cy = tableDepth - r.center.y;
    g.append(
      s("rect", {
        class: `range-ring r${r.radius}`,
        "data-radius": r.radius,
        x: fmt(cx - r.width / 2),
        y: fmt(cy - r.depth / 2),
        width: fmt(r.width),
        height: fmt(r.depth),
        rx: fmt(r.cornerRadius),
        ry: fmt(r.cornerRadius),
        // SVG rotates clockwise on screen, as facings turn on the table.
        transform: `rotate(${fmt(r.facingDeg)} ${fmt(cx)} ${fmt(cy)})`,
      }),
    );
    // The label sits on the ring straight ahead of the front.
    const f = { x: Math.sin((r.facingDeg * Math.PI) / 180), y: Math.cos((r.facingDeg * Math.PI) / 180) };
    const reach = r.depth / 2;
    g.append(
      s(
        "text",
        { class: "range-label", x: fmt(cx + f.x * reach), y: fmt(cy - f.y * reach) },
        `${r.radius}″`,
      ),
    );
  }
  return g;
}

export function drawGhost(pv: Preview, tableDepth: number): SVGGElement {
  const g = s("g", { class: "ghost", "aria-hidden": "true", "data-testid": "move-preview", "data-steps": pv.steps.length });
  const trail = [pv.start.frontMid, ...pv.steps.flatMap((st) => st.trail.slice(1))];
  pv.steps.forEach((st, i) => {
    const last = i === pv.steps.length - 1;
    const cls = `ghost-step${last ? " final" : ""}`;
    const sg = s("g", { class: cls, "data-step-index": st.index, "data-action": st.action });
    const rects = st.placement.bases.length > 0 ? st.placement.bases : [st.placement.envelope];
    for (const b of rects) {
      const corners = rectCorners(b);
      sg.append(s("polygon", { class: "ghost-base", points: svgPoints(corners, tableDepth) }));
      sg.append(s("polyline", { class: "ghost-front", points: svgPoints([corners[0], corners[1]], tableDepth) }));
    }
    if (st.pivotPoint) {
      sg.append(s("circle", { class: "ghost-pivot", cx: fmt(st.pivotPoint.x), cy: fmt(tableDepth - st.pivotPoint.y), r: 0.2 }));
    }
    const m = st.placement.frontMid;
    sg.append(s("text", { class: "ghost-label", x: fmt(m.x), y: fmt(tableDepth - m.y) }, String(st.index + 1)));
    g.append(sg);
  });
  if (trail.length > 1) g.prepend(s("polyline", { class: "ghost-trail", points: svgPoints(trail, tableDepth) }));
  return g;
}
