// Turning pointer gestures on the map into order steps: the same steps the
// orders panel's typed form holds (DraftStep), which the player then sends
// and locks as any typed order. Pure functions on table coordinates (x east,
// y north, facing clockwise from north); pointer positions reach them through
// the map's frame (orientation.ts), so a turned table needs nothing here.
//
// Nothing here rules on an order: a drag is only measured and written down
// in the ruleset's unit (a forward step's distance and deviation, a wheel's
// pivot and angle, a point to move to). The server checks the order as it
// checks a typed one. The one number read from the decision is the
// allowance it states (its limits), to show beside the drag and to snap a
// drag that ends close to it onto it exactly.
import type { StepField } from "../game/ruleset";
import { emptyDraft, type DraftStep } from "../play/state";
import { facingVector, rectCorners, type Vec } from "./geometry";
import { frontLeft, frontRight, type Placement } from "./preview";

// What dragging the unit itself writes, from the actions the ruleset lets a
// decision of this kind take and the fields each reads:
//   "forward"   a forward step along the facing (its distance only)
//   "deviate"   a forward step with the deviation from the facing it reads
//               (angle_deg, clockwise positive)
//   "move_to"   a move to the point the unit's front middle is dropped at
// and whether its front corners carry wheel handles.
export type DragKind = "forward" | "deviate" | "move_to";

export interface MoveAbility {
  drag: DragKind | null;
  wheel: boolean;
}

export function abilityFor(actions: readonly string[] | undefined, fieldsOf: (action: string) => readonly StepField[]): MoveAbility {
  const list = actions ?? [];
  let drag: DragKind | null = null;
  if (list.includes("forward")) {
    const reads = fieldsOf("forward");
    if (reads.includes("distance")) drag = reads.includes("angleDeg") ? "deviate" : "forward";
  } else if (list.includes("move_to") && fieldsOf("move_to").includes("to")) {
    drag = "move_to";
  }
  const wheel = list.includes("wheel") && ["pivot", "angleDeg"].every((f) => fieldsOf("wheel").includes(f as StepField));
  return { drag, wheel };
}

// The limits a decision states its allowance under, in the order looked
// for: a diced move's "allowance", a move's or a leader's "max_distance",
// a leader's "move" among its command actions.
export const ALLOWANCE_LIMITS = ["allowance", "max_distance", "move"] as const;

// The allowance the decision states, in table units; null when it states none.
export function allowanceOf(limits: readonly { name: string; value: number }[]): number | null {
  for (const name of ALLOWANCE_LIMITS) {
    const l = limits.find((x) => x.name === name);
    if (l && Number.isFinite(l.value)) return l.value;
  }
  return null;
}

// Distances are written to a tenth of the table unit, angles to a degree:
// as the typed form's number fields step.
export function roundDistance(d: number): number {
  return Math.round(d * 10) / 10;
}
export function roundAngle(deg: number): number {
  const r = Math.round(deg);
  return r === 0 ? 0 : r; // no -0 in a field
}

export interface DragOptions {
  // The allowance the decision states (null: none), and how near to it a
  // drag snaps onto it (table units; 0 never snaps).
  allowance: number | null;
  snap: number;
}

// A drag of the unit by `delta` (table units) from where `from` stands: the
// step it writes and the distance it measures (shown against the
// allowance), or null when the drag writes nothing (no way forward, or no
// length at all).
export function dragStep(kind: DragKind, from: Placement, delta: Vec, opts: DragOptions): { step: DraftStep; distance: number } | null {
  const snapTo = (d: number) =>
    opts.allowance !== null && opts.allowance > 0 && Math.abs(d - opts.allowance) <= opts.snap ? opts.allowance : roundDistance(d);
  switch (kind) {
    case "forward": {
      // Only the part along the facing: the step reads no deviation.
      const f = facingVector(from.facingDeg);
      const distance = snapTo(delta.x * f.x + delta.y * f.y);
      if (!(distance > 0)) return null;
      return { step: { ...emptyDraft("forward"), distance }, distance };
    }
    case "deviate": {
      const distance = snapTo(Math.hypot(delta.x, delta.y));
      if (!(distance > 0)) return null;
      const angleDeg = roundAngle(turnBetween(from.facingDeg, bearing(delta)));
      return { step: { ...emptyDraft("forward"), distance, angleDeg }, distance };
    }
    case "move_to": {
      if (Math.hypot(delta.x, delta.y) === 0) return null;
      const to = { x: roundDistance(from.frontMid.x + delta.x), y: roundDistance(from.frontMid.y + delta.y) };
      const distance = roundDistance(Math.hypot(to.x - from.frontMid.x, to.y - from.frontMid.y));
      return { step: { ...emptyDraft("move_to"), toX: to.x, toY: to.y }, distance };
    }
  }
}

// ---- Wheels ----

// A handle on a front corner: dragging it swings that corner about the
// other one, which is the wheel's pivot.
export interface WheelHandle {
  corner: "left" | "right"; // the front corner it sits on
  at: Vec;
  pivot: "left" | "right"; // the step's pivot: the other front corner
  pivotAt: Vec;
}

export function wheelHandles(p: Placement): WheelHandle[] {
  const fl = frontLeft(p.envelope);
  const fr = frontRight(p.envelope);
  return [
    { corner: "right", at: fr, pivot: "left", pivotAt: fl },
    { corner: "left", at: fl, pivot: "right", pivotAt: fr },
  ];
}

// The wheel a handle dragged to `pointer` writes: the turn about the pivot
// from the corner's bearing to the pointer's, clockwise positive (as the
// typed form's "angle ° (cw)" and the preview read it), within ±180°; null
// for no turn.
export function wheelStep(h: WheelHandle, pointer: Vec): DraftStep | null {
  const from = { x: h.at.x - h.pivotAt.x, y: h.at.y - h.pivotAt.y };
  const to = { x: pointer.x - h.pivotAt.x, y: pointer.y - h.pivotAt.y };
  if (Math.hypot(to.x, to.y) === 0 || Math.hypot(from.x, from.y) === 0) return null;
  const angleDeg = roundAngle(turnBetween(bearing(from), bearing(to)));
  if (angleDeg === 0) return null;
  return { ...emptyDraft("wheel"), pivot: h.pivot, angleDeg };
}

// The handle within `reach` (table units) of a point, the nearest first.
export function handleAt(handles: readonly WheelHandle[], at: Vec, reach: number): WheelHandle | null {
  let best: WheelHandle | null = null;
  let bestD = reach;
  for (const h of handles) {
    const d = Math.hypot(h.at.x - at.x, h.at.y - at.y);
    if (d <= bestD) {
      best = h;
      bestD = d;
    }
  }
  return best;
}

// ---- Hit tests ----

// Whether a table point lies on a footprint (any of its bases; the
// envelope for a unit drawn without bases), grown by `margin`.
export function onPlacement(p: Placement, at: Vec, margin = 0): boolean {
  const rects = p.bases.length > 0 ? p.bases : [p.envelope];
  return rects.some((r) => insideRect(rectCorners({ ...r, width: r.width + 2 * margin, depth: r.depth + 2 * margin }), at));
}

function insideRect(c: readonly Vec[], p: Vec): boolean {
  // A convex polygon: the point is on the same side of every edge.
  let sign = 0;
  for (let i = 0; i < c.length; i++) {
    const a = c[i]!;
    const b = c[(i + 1) % c.length]!;
    const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross === 0) continue;
    const s = Math.sign(cross);
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

// ---- Angles ----

// The compass bearing of a vector (degrees clockwise from north).
export function bearing(v: Vec): number {
  return (Math.atan2(v.x, v.y) * 180) / Math.PI;
}

// The turn from one bearing to another, clockwise positive, in (-180, 180].
export function turnBetween(fromDeg: number, toDeg: number): number {
  let d = (toDeg - fromDeg) % 360;
  if (d <= -180) d += 360;
  if (d > 180) d -= 360;
  return d;
}

// ---- What the map says while a gesture writes a step ----

// The step being written, in words, with the distance the drag measures
// against the allowance the decision states. `over`: the drag alone
// measures more than that allowance (the server rules on the whole order).
export function describeDrag(
  step: DraftStep,
  distance: number | null,
  allowance: number | null,
  unit: (n: number) => string,
): { text: string; over: boolean } {
  if (step.action === "wheel") {
    const turn = step.angleDeg >= 0 ? "clockwise" : "anticlockwise";
    return { text: `Wheel ${Math.abs(step.angleDeg)}° ${turn} about the ${step.pivot} front corner`, over: false };
  }
  const d = distance ?? 0;
  const what =
    step.action === "move_to"
      ? `Move to (${step.toX}, ${step.toY}): ${d} ${unit(d)}`
      : `Forward ${d} ${unit(d)}${step.angleDeg ? `, ${Math.abs(step.angleDeg)}° ${step.angleDeg > 0 ? "right" : "left"} of the facing` : ""}`;
  if (allowance === null) return { text: what, over: false };
  return { text: `${what} — allowance ${allowance} ${unit(allowance)}`, over: d > allowance };
}
