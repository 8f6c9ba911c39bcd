// Move preview geometry: where an order being edited would put a unit's
// footprint, step by step, plus range rings and the front arc of a unit.
// Pure functions on table coordinates (x east, y north, facing clockwise from
// north); drawing lives in draw.ts.
//
// This is a sketch for the player, not a ruling: the server checks and
// carries out the order. Only the rigid moves are drawn (forward, wheel,
// incline, side step, step back, about face, move to); a step that reshapes
// the unit (formation, re-form, mount, ...) ends the preview there.
import { facingVector, rectCorners, rightVector, type RectLike, type Vec } from "./geometry";

const DEG = Math.PI / 180;

// The parts of a UnitView the preview reads.
export interface UnitShape {
  position?: Vec | undefined; // middle of the front edge
  facingDeg: number;
  bases: readonly RectLike[];
}

// The parts of an order step the preview reads.
export interface StepLike {
  action: string;
  distance: number;
  angleDeg: number;
  pivot: string;
  to?: Vec | undefined;
}

export interface Rect {
  center: Vec;
  width: number;
  depth: number;
  facingDeg: number;
}

// A unit's footprint at one point of the path.
export interface Placement {
  bases: Rect[];
  envelope: Rect; // the smallest rectangle in the unit's frame holding every base
  frontMid: Vec;
  facingDeg: number;
}

export interface PreviewStep {
  index: number; // into the order's steps
  action: string;
  placement: Placement; // after the step
  trail: Vec[]; // the path of the front's middle during the step
  pivotPoint?: Vec; // wheels
}

export interface Preview {
  start: Placement;
  steps: PreviewStep[];
  // The first step the preview could not draw (and the reason), if any.
  stoppedAt?: { index: number; action: string; reason: string };
}

export const RIGID_ACTIONS = new Set(["forward", "wheel", "incline", "side_step", "step_back", "about_face", "move_to"]);
// Steps that leave the footprint where it is.
const IN_PLACE_ACTIONS = new Set(["steady", "inspire", "listen", "objective", "detach", "issue_orders", "send_messenger"]);

const WHEEL_TRAIL_STEP_DEG = 5;

// ---- Placement ----

// The unit's footprint and frame as the view gives it. Without bases the
// unit is a small square at its position (the map draws it so too).
export function placementOf(u: UnitShape): Placement {
  const facingDeg = norm(u.facingDeg);
  const bases: Rect[] = u.bases.map((b) => ({
    center: { x: b.center?.x ?? 0, y: b.center?.y ?? 0 },
    width: b.width,
    depth: b.depth,
    facingDeg: b.facingDeg,
  }));
  const f = facingVector(facingDeg);
  const r = rightVector(facingDeg);
  const corners = bases.flatMap((b) => rectCorners(b));
  const origin = u.position ?? (corners.length ? mean(corners) : { x: 0, y: 0 });
  if (corners.length === 0) {
    const size = 1.2;
    const env: Rect = {
      center: add(origin, scale(f, -size * 0.3)),
      width: size,
      depth: size * 0.6,
      facingDeg,
    };
    return { bases: [], envelope: env, frontMid: origin, facingDeg };
  }
  let minA = Infinity;
  let maxA = -Infinity;
  let minF = Infinity;
  let maxF = -Infinity;
  for (const c of corners) {
    const d = sub(c, origin);
    const across = dot(d, r);
    const along = dot(d, f);
    minA = Math.min(minA, across);
    maxA = Math.max(maxA, across);
    minF = Math.min(minF, along);
    maxF = Math.max(maxF, along);
  }
  const center = add(origin, add(scale(r, (minA + maxA) / 2), scale(f, (minF + maxF) / 2)));
  const envelope: Rect = { center, width: maxA - minA, depth: maxF - minF, facingDeg };
  return { bases, envelope, frontMid: origin, facingDeg };
}

export function frontLeft(r: Rect): Vec {
  return rectCorners(r)[0];
}

export function frontRight(r: Rect): Vec {
  return rectCorners(r)[1];
}

// ---- Rigid motions ----

// Rotates v clockwise (compass sense) by deg.
export function rotateCw(v: Vec, deg: number): Vec {
  const c = Math.cos(deg * DEG);
  const s = Math.sin(deg * DEG);
  return { x: v.x * c + v.y * s, y: -v.x * s + v.y * c };
}

export function rotateCwAbout(p: Vec, centre: Vec, deg: number): Vec {
  return add(centre, rotateCw(sub(p, centre), deg));
}

export function translate(p: Placement, d: Vec): Placement {
  const move = (r: Rect): Rect => ({ ...r, center: add(r.center, d) });
  return {
    bases: p.bases.map(move),
    envelope: move(p.envelope),
    frontMid: add(p.frontMid, d),
    facingDeg: p.facingDeg,
  };
}

export function rotate(p: Placement, centre: Vec, deg: number): Placement {
  const turn = (r: Rect): Rect => ({
    ...r,
    center: rotateCwAbout(r.center, centre, deg),
    facingDeg: norm(r.facingDeg + deg),
  });
  return {
    bases: p.bases.map(turn),
    envelope: turn(p.envelope),
    frontMid: rotateCwAbout(p.frontMid, centre, deg),
    facingDeg: norm(p.facingDeg + deg),
  };
}

// ---- Steps ----

// One step from `from`: the new placement and the trail of the front's
// middle, or a reason the preview cannot draw it.
export function applyStep(
  from: Placement,
  step: StepLike,
): { placement: Placement; trail: Vec[]; pivotPoint?: Vec } | { reason: string } {
  const f = facingVector(from.facingDeg);
  const straight = (d: Vec) => {
    const placement = translate(from, d);
    return { placement, trail: [from.frontMid, placement.frontMid] };
  };
  switch (step.action) {
    case "forward":
      // angle_deg: deviation from the facing, clockwise positive.
      return straight(scale(facingVector(from.facingDeg + step.angleDeg), step.distance));
    case "step_back":
      return straight(scale(f, -step.distance));
    case "side_step": {
      const side = sideSign(step.pivot);
      if (side === 0) return { reason: "a side step needs a side (left or right)" };
      return straight(scale(facingVector(from.facingDeg + 90 * side), step.distance));
    }
    case "incline": {
      // Half the distance forward and half to the side.
      const side = sideSign(step.pivot);
      if (side === 0) return { reason: "an incline needs a side (left or right)" };
      const d = add(scale(f, step.distance / 2), scale(facingVector(from.facingDeg + 90), (side * step.distance) / 2));
      return straight(d);
    }
    case "wheel": {
      // Rotation about the left or right front corner, clockwise positive.
      const pivotPoint =
        step.pivot === "left" ? frontLeft(from.envelope) : step.pivot === "right" ? frontRight(from.envelope) : null;
      if (!pivotPoint) return { reason: "a wheel needs a pivot (left or right front corner)" };
      const placement = rotate(from, pivotPoint, step.angleDeg);
      return { placement, trail: arcTrail(from.frontMid, pivotPoint, step.angleDeg), pivotPoint };
    }
    case "about_face": {
      // Faces about in place: the same ground, the front now at the rear.
      const placement = rotate(from, from.envelope.center, 180);
      return { placement, trail: [from.frontMid, placement.frontMid] };
    }
    case "move_to": {
      if (!step.to) return { reason: "a move needs a point to move to" };
      return straight(sub(step.to, from.frontMid));
    }
    default:
      if (IN_PLACE_ACTIONS.has(step.action)) return { placement: from, trail: [] };
      return { reason: `the server works out the footprint after '${step.action}'` };
  }
}

export function previewPath(u: UnitShape, steps: readonly StepLike[]): Preview {
  const start = placementOf(u);
  const out: Preview = { start, steps: [] };
  let cur = start;
  for (let i = 0; i < steps.length; i++) {
    const st = steps[i]!;
    const r = applyStep(cur, st);
    if ("reason" in r) {
      out.stoppedAt = { index: i, action: st.action, reason: r.reason };
      break;
    }
    out.steps.push({ index: i, action: st.action, placement: r.placement, trail: r.trail, ...(r.pivotPoint ? { pivotPoint: r.pivotPoint } : {}) });
    cur = r.placement;
  }
  return out;
}

// Points along the arc a point follows turning about `centre`.
export function arcTrail(p: Vec, centre: Vec, deg: number): Vec[] {
  const n = Math.max(1, Math.ceil(Math.abs(deg) / WHEEL_TRAIL_STEP_DEG));
  const out: Vec[] = [];
  for (let i = 0; i <= n; i++) out.push(rotateCwAbout(p, centre, (deg * i) / n));
  return out;
}

// ---- Ranges and arcs ----

// "Within r" of the footprint's envelope: the rectangle grown by r on every
// side with corners rounded to radius r (exact edge-to-edge distance r).
export interface Ring {
  radius: number;
  center: Vec;
  width: number;
  depth: number;
  facingDeg: number;
  cornerRadius: number;
}

export function rangeRings(p: Placement, radii: readonly number[] = [1, 2, 6]): Ring[] {
  return radii.map((radius) => ({
    radius,
    center: p.envelope.center,
    width: p.envelope.width + 2 * radius,
    depth: p.envelope.depth + 2 * radius,
    facingDeg: p.envelope.facingDeg,
    cornerRadius: radius,
  }));
}

// The front arc cut off at `range` beyond the front edge: from each front
// corner, a line splayed outward by `halfAngleDeg` from straight ahead
// (rules/core geometry's front_arc_polygon). Corners: front-left,
// front-right, far-right, far-left.
export function frontArc(p: Placement, range = 6, halfAngleDeg = 45): [Vec, Vec, Vec, Vec] {
  const f = facingVector(p.envelope.facingDeg);
  const r = rightVector(p.envelope.facingDeg);
  const fl = frontLeft(p.envelope);
  const fr = frontRight(p.envelope);
  const spread = range * Math.tan(halfAngleDeg * DEG);
  return [fl, fr, add(fr, add(scale(f, range), scale(r, spread))), add(fl, sub(scale(f, range), scale(r, spread)))];
}

// ---- Vectors ----

function add(a: Vec, b: Vec): Vec {
  return { x: a.x + b.x, y: a.y + b.y };
}
function sub(a: Vec, b: Vec): Vec {
  return { x: a.x - b.x, y: a.y - b.y };
}
function scale(a: Vec, k: number): Vec {
  return { x: a.x * k, y: a.y * k };
}
function dot(a: Vec, b: Vec): number {
  return a.x * b.x + a.y * b.y;
}
function mean(ps: readonly Vec[]): Vec {
  let x = 0;
  let y = 0;
  for (const p of ps) {
    x += p.x;
    y += p.y;
  }
  return { x: x / ps.length, y: y / ps.length };
}
function norm(deg: number): number {
  const d = deg % 360;
  return d < 0 ? d + 360 : d;
}
function sideSign(side: string): number {
  return side === "right" ? 1 : side === "left" ? -1 : 0;
}
