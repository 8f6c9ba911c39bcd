import { describe, expect, it } from "vitest";
import {
  applyStep,
  arcTrail,
  frontArc,
  placementOf,
  previewPath,
  rangeRings,
  rotateCw,
  type Placement,
  type StepLike,
  type UnitShape,
} from "../src/map/preview";
import { rectCorners, type Vec } from "../src/map/geometry";

// A line of two 2"x1" bases facing north, front edge from (8,10) to (12,10).
const line: UnitShape = {
  position: { x: 10, y: 10 },
  facingDeg: 0,
  bases: [
    { center: { x: 9, y: 9.5 }, width: 2, depth: 1, facingDeg: 0 },
    { center: { x: 11, y: 9.5 }, width: 2, depth: 1, facingDeg: 0 },
  ],
};

const step = (action: string, extra: Partial<StepLike> = {}): StepLike => ({
  action,
  distance: 0,
  angleDeg: 0,
  pivot: "",
  ...extra,
});

function expectVec(got: Vec, want: Vec): void {
  expect(got.x).toBeCloseTo(want.x, 9);
  expect(got.y).toBeCloseTo(want.y, 9);
}

function placed(r: ReturnType<typeof applyStep>): Placement {
  if ("reason" in r) throw new Error(r.reason);
  return r.placement;
}

describe("placementOf", () => {
  it("takes the envelope of the bases in the unit's own frame", () => {
    const p = placementOf(line);
    expectVec(p.envelope.center, { x: 10, y: 9.5 });
    expect(p.envelope.width).toBeCloseTo(4, 12);
    expect(p.envelope.depth).toBeCloseTo(1, 12);
    expect(p.facingDeg).toBe(0);
    expectVec(p.frontMid, { x: 10, y: 10 });
    const [fl, fr, br, bl] = rectCorners(p.envelope);
    expectVec(fl, { x: 8, y: 10 });
    expectVec(fr, { x: 12, y: 10 });
    expectVec(br, { x: 12, y: 9 });
    expectVec(bl, { x: 8, y: 9 });
  });

  it("works in the unit's frame whatever the facing (a column facing east)", () => {
    const column: UnitShape = {
      position: { x: 20, y: 5 },
      facingDeg: 90,
      bases: [
        { center: { x: 19.5, y: 5 }, width: 2, depth: 1, facingDeg: 90 },
        { center: { x: 18.5, y: 5 }, width: 2, depth: 1, facingDeg: 90 },
      ],
    };
    const p = placementOf(column);
    expect(p.envelope.width).toBeCloseTo(2, 12);
    expect(p.envelope.depth).toBeCloseTo(2, 12);
    expectVec(p.envelope.center, { x: 19, y: 5 });
    // Facing east, the left front corner is the north one.
    expectVec(rectCorners(p.envelope)[0], { x: 20, y: 6 });
  });

  it("gives a unit without bases a small stand behind its position", () => {
    const p = placementOf({ position: { x: 3, y: 4 }, facingDeg: 180, bases: [] });
    expect(p.bases).toEqual([]);
    expect(p.envelope.width).toBeCloseTo(1.2, 12);
    expect(p.envelope.depth).toBeCloseTo(0.72, 12);
    // Facing south, "behind" is north.
    expectVec(p.envelope.center, { x: 3, y: 4.36 });
  });
});

describe("rotateCw", () => {
  it("turns clockwise in the compass sense", () => {
    expectVec(rotateCw({ x: 0, y: 1 }, 90), { x: 1, y: 0 });
    expectVec(rotateCw({ x: 1, y: 0 }, 90), { x: 0, y: -1 });
    expectVec(rotateCw({ x: 0, y: 1 }, -90), { x: -1, y: 0 });
  });
});

describe("applyStep", () => {
  const start = placementOf(line);

  it("moves forward along the facing", () => {
    const p = placed(applyStep(start, step("forward", { distance: 3 })));
    expectVec(p.frontMid, { x: 10, y: 13 });
    expectVec(p.bases[0]!.center, { x: 9, y: 12.5 });
    expectVec(p.bases[1]!.center, { x: 11, y: 12.5 });
    expect(p.facingDeg).toBe(0);
  });

  it("moves forward with a deviation, clockwise positive", () => {
    const p = placed(applyStep(start, step("forward", { distance: 2, angleDeg: 90 })));
    expectVec(p.frontMid, { x: 12, y: 10 });
    expect(p.facingDeg).toBe(0);
  });

  it("wheels 90° clockwise about the left front corner", () => {
    const r = applyStep(start, step("wheel", { pivot: "left", angleDeg: 90 }));
    if ("reason" in r) throw new Error(r.reason);
    expectVec(r.pivotPoint!, { x: 8, y: 10 });
    const p = r.placement;
    expect(p.facingDeg).toBeCloseTo(90, 12);
    // The front edge now runs north-south through the pivot: (8,10) to (8,6).
    expectVec(p.frontMid, { x: 8, y: 8 });
    const [fl, fr] = rectCorners(p.envelope);
    expectVec(fl, { x: 8, y: 10 });
    expectVec(fr, { x: 8, y: 6 });
    expectVec(p.bases[0]!.center, { x: 7.5, y: 9 });
    expectVec(p.bases[1]!.center, { x: 7.5, y: 7 });
    expect(p.bases[0]!.facingDeg).toBeCloseTo(90, 12);
  });

  it("wheels anticlockwise with a negative angle about the right front corner", () => {
    const p = placed(applyStep(start, step("wheel", { pivot: "right", angleDeg: -45 })));
    expect(p.facingDeg).toBeCloseTo(315, 12);
    // Front-mid (10,10) is 2" west of the pivot (12,10); 45° anticlockwise.
    expectVec(p.frontMid, { x: 12 - Math.SQRT2, y: 10 - Math.SQRT2 });
    const [, fr] = rectCorners(p.envelope);
    expectVec(fr, { x: 12, y: 10 });
  });

  it("samples the wheel's trail every 5° on the arc", () => {
    const r = applyStep(start, step("wheel", { pivot: "left", angleDeg: 30 }));
    if ("reason" in r) throw new Error(r.reason);
    expect(r.trail.length).toBe(7);
    expectVec(r.trail[0]!, { x: 10, y: 10 });
    // Every point stays 2" from the pivot.
    for (const q of r.trail) expect(Math.hypot(q.x - 8, q.y - 10)).toBeCloseTo(2, 12);
    expectVec(r.trail[6]!, { x: 8 + 2 * Math.cos(Math.PI / 6), y: 10 - 2 * Math.sin(Math.PI / 6) });
  });

  it("inclines half forward, half to the side", () => {
    const p = placed(applyStep(start, step("incline", { distance: 2, pivot: "right" })));
    expectVec(p.frontMid, { x: 11, y: 11 });
    const q = placed(applyStep(start, step("incline", { distance: 2, pivot: "left" })));
    expectVec(q.frontMid, { x: 9, y: 11 });
  });

  it("side steps, steps back and faces about", () => {
    expectVec(placed(applyStep(start, step("side_step", { distance: 1, pivot: "left" }))).frontMid, { x: 9, y: 10 });
    expectVec(placed(applyStep(start, step("step_back", { distance: 1 }))).frontMid, { x: 10, y: 9 });
    const about = placed(applyStep(start, step("about_face")));
    expect(about.facingDeg).toBeCloseTo(180, 12);
    expectVec(about.frontMid, { x: 10, y: 9 });
    expectVec(about.envelope.center, { x: 10, y: 9.5 });
    // The left base is now on the east.
    expectVec(about.bases[0]!.center, { x: 11, y: 9.5 });
  });

  it("moves to a point keeping the facing", () => {
    const p = placed(applyStep(start, step("move_to", { to: { x: 20, y: 30 } })));
    expectVec(p.frontMid, { x: 20, y: 30 });
    expectVec(p.bases[1]!.center, { x: 21, y: 29.5 });
  });

  it("says why it cannot draw a step", () => {
    expect(applyStep(start, step("wheel", { angleDeg: 30 }))).toHaveProperty("reason");
    expect(applyStep(start, step("formation"))).toMatchObject({ reason: expect.stringContaining("formation") });
  });
});

describe("previewPath", () => {
  it("chains the steps: forward 2, wheel 90 on the left, forward 1", () => {
    const pv = previewPath(line, [
      step("forward", { distance: 2 }),
      step("wheel", { pivot: "left", angleDeg: 90 }),
      step("forward", { distance: 1 }),
    ]);
    expect(pv.stoppedAt).toBeUndefined();
    expect(pv.steps.map((s) => s.index)).toEqual([0, 1, 2]);
    expectVec(pv.steps[0]!.placement.frontMid, { x: 10, y: 12 });
    expectVec(pv.steps[1]!.pivotPoint!, { x: 8, y: 12 });
    expectVec(pv.steps[1]!.placement.frontMid, { x: 8, y: 10 });
    expectVec(pv.steps[2]!.placement.frontMid, { x: 9, y: 10 });
    expect(pv.steps[2]!.placement.facingDeg).toBeCloseTo(90, 12);
  });

  it("stops at the first step it cannot draw", () => {
    const pv = previewPath(line, [step("forward", { distance: 1 }), step("formation"), step("forward", { distance: 1 })]);
    expect(pv.steps.length).toBe(1);
    expect(pv.stoppedAt).toMatchObject({ index: 1, action: "formation" });
  });
});

describe("rangeRings and frontArc", () => {
  const p = placementOf(line);

  it("grows the envelope by each radius with rounded corners", () => {
    const rings = rangeRings(p);
    expect(rings.map((r) => r.radius)).toEqual([1, 2, 6]);
    expect(rings.map((r) => [r.width, r.depth, r.cornerRadius])).toEqual([
      [6, 3, 1],
      [8, 5, 2],
      [16, 13, 6],
    ]);
    for (const r of rings) expectVec(r.center, { x: 10, y: 9.5 });
  });

  it("splays 45° out from each front corner", () => {
    const [fl, fr, farR, farL] = frontArc(p, 6);
    expectVec(fl, { x: 8, y: 10 });
    expectVec(fr, { x: 12, y: 10 });
    expectVec(farR, { x: 18, y: 16 });
    expectVec(farL, { x: 2, y: 16 });
  });

  it("follows the facing", () => {
    const east = placementOf({ ...line, facingDeg: 90, position: { x: 0, y: 0 }, bases: [{ center: { x: -0.5, y: 0 }, width: 4, depth: 1, facingDeg: 90 }] });
    const [fl, fr, farR, farL] = frontArc(east, 2);
    expectVec(fl, { x: 0, y: 2 });
    expectVec(fr, { x: 0, y: -2 });
    expectVec(farR, { x: 2, y: -4 });
    expectVec(farL, { x: 2, y: 4 });
  });
});

describe("arcTrail", () => {
  it("includes both ends", () => {
    const t = arcTrail({ x: 1, y: 0 }, { x: 0, y: 0 }, -90);
    expectVec(t[0]!, { x: 1, y: 0 });
    expectVec(t[t.length - 1]!, { x: 0, y: 1 });
  });
});
