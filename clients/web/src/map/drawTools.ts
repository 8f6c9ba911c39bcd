// SVG for the map's tools: the wheel handles on a unit's front corners
// (drag.ts) and the measuring tape (tape.ts), placed through the map's frame
// (orientation.ts). Sizes on screen are set in CSS in screen pixels (--px).
import { s } from "../ui/dom";
import type { WheelHandle } from "./drag";
import { fmt } from "./geometry";
import { screenPoints, toScreen, type TableFrame } from "./orientation";
import { tapeMiddle, type Tape } from "./tape";

export function drawHandles(handles: readonly WheelHandle[], frame: TableFrame, unitId: string): SVGGElement {
  const g = s("g", { class: "wheel-handles", "data-testid": "wheel-handles", "data-unit-id": unitId });
  for (const hd of handles) {
    const at = toScreen(frame, hd.at);
    g.append(
      s(
        "circle",
        {
          class: "wheel-handle",
          "data-corner": hd.corner,
          "data-pivot": hd.pivot,
          "data-testid": `wheel-handle-${hd.corner}`,
          cx: fmt(at.x),
          cy: fmt(at.y),
        },
        s("title", {}, `Drag to wheel about the ${hd.pivot} front corner`),
      ),
    );
  }
  return g;
}

export function drawTape(t: Tape, frame: TableFrame, label: string): SVGGElement {
  const g = s("g", { class: "tape", "aria-hidden": "true", "data-testid": "tape", "data-label": label });
  const a = toScreen(frame, t.from);
  const b = toScreen(frame, t.to);
  g.append(
    s("polyline", { class: "tape-line", points: screenPoints(frame, [t.from, t.to]) }),
    s("circle", { class: "tape-end", cx: fmt(a.x), cy: fmt(a.y) }),
    s("circle", { class: "tape-end", cx: fmt(b.x), cy: fmt(b.y) }),
  );
  const m = toScreen(frame, tapeMiddle(t));
  g.append(s("text", { class: "tape-label", x: fmt(m.x), y: fmt(m.y) }, label));
  return g;
}
