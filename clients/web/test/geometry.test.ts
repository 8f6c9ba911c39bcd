import { describe, expect, it } from "vitest";
import {
  centroid,
  clientToSvg,
  facingVector,
  fitViewBox,
  panViewBox,
  rectCorners,
  withAspect,
  zoomViewBox,
  type Vec,
} from "../src/map/geometry";

function near(a: Vec, b: Vec) {
  expect(a.x).toBeCloseTo(b.x, 9);
  expect(a.y).toBeCloseTo(b.y, 9);
}

describe("rect corners from centre and facing", () => {
  it("facing north: front edge is the northern one", () => {
    const [fl, fr, br, bl] = rectCorners({ center: { x: 10, y: 10 }, width: 4, depth: 2, facingDeg: 0 });
    near(fl, { x: 8, y: 11 });
    near(fr, { x: 12, y: 11 });
    near(br, { x: 12, y: 9 });
    near(bl, { x: 8, y: 9 });
  });

  it("facing east (90, clockwise from north): front edge is the eastern one", () => {
    const [fl, fr, br, bl] = rectCorners({ center: { x: 10, y: 10 }, width: 4, depth: 2, facingDeg: 90 });
    near(fl, { x: 11, y: 12 });
    near(fr, { x: 11, y: 8 });
    near(br, { x: 9, y: 8 });
    near(bl, { x: 9, y: 12 });
  });

  it("facing south and 45 degrees", () => {
    const [fl, fr] = rectCorners({ center: { x: 0, y: 0 }, width: 2, depth: 2, facingDeg: 180 });
    near(fl, { x: 1, y: -1 });
    near(fr, { x: -1, y: -1 });
    const f = facingVector(45);
    near(f, { x: Math.SQRT1_2, y: Math.SQRT1_2 });
    const corners = rectCorners({ center: { x: 5, y: 5 }, width: 3, depth: 1, facingDeg: 45 });
    near(centroid(corners), { x: 5, y: 5 });
    // Front edge length equals the width, side edge the depth.
    const len = (a: Vec, b: Vec) => Math.hypot(a.x - b.x, a.y - b.y);
    expect(len(corners[0], corners[1])).toBeCloseTo(3, 9);
    expect(len(corners[1], corners[2])).toBeCloseTo(1, 9);
  });

  it("treats a missing centre as the origin", () => {
    const [fl] = rectCorners({ width: 2, depth: 2, facingDeg: 0 });
    near(fl, { x: -1, y: 1 });
  });
});

describe("view box", () => {
  it("fits the table with a margin at the viewport's aspect", () => {
    expect(fitViewBox(72, 48, 2, 1)).toEqual({ x: -14, y: -1, w: 100, h: 50 });
    const tall = fitViewBox(72, 48, 1, 1);
    expect(tall.w).toBe(74);
    expect(tall.h).toBe(74);
    expect(tall.y).toBe(-13);
  });

  it("zooms about an anchor that stays put", () => {
    const vb = { x: 0, y: 0, w: 100, h: 50 };
    const z = zoomViewBox(vb, 2, { x: 20, y: 10 }, 1, 400);
    expect(z).toEqual({ x: 10, y: 5, w: 50, h: 25 });
    // The anchor's relative position in the box is unchanged.
    expect((20 - z.x) / z.w).toBeCloseTo((20 - vb.x) / vb.w, 12);
    // Clamped.
    expect(zoomViewBox(vb, 1000, { x: 0, y: 0 }, 5, 400).w).toBe(5);
    expect(zoomViewBox(vb, 0.001, { x: 0, y: 0 }, 5, 400).w).toBe(400);
  });

  it("pans with the pointer and maps client pixels to SVG units", () => {
    const vb = { x: 0, y: 0, w: 100, h: 50 };
    // 1000 px wide element: 0.1 unit per px; dragging right moves content right.
    expect(panViewBox(vb, 100, -50, 1000)).toEqual({ x: -10, y: 5, w: 100, h: 50 });
    const el = { left: 10, top: 20, width: 1000, height: 500 };
    expect(clientToSvg(10, 20, el, vb)).toEqual({ x: 0, y: 0 });
    expect(clientToSvg(510, 270, el, vb)).toEqual({ x: 50, y: 25 });
    expect(withAspect(vb, 1)).toEqual({ x: 0, y: -25, w: 100, h: 100 });
  });
});
