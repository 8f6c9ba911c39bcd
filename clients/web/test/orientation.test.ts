import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { GameViewSchema, Knowledge, UnitViewSchema, type GameView } from "@gen/galloper/v1/game_pb";
import { clientToSvg, fitViewBox } from "../src/map/geometry";
import {
  decideTurn,
  frameOf,
  ownEdgeTurned,
  screenFacing,
  screenPoints,
  toScreen,
  toTable,
  turnKey,
} from "../src/map/orientation";

// A 72x48 table: the Allies deploy along the south edge (y near 0), the
// French along the north edge (y near 48).
function viewFor(side: string): GameView {
  return create(GameViewSchema, {
    gameId: "g1",
    seat: side ? `${side}/wing` : "umpire",
    side,
    tableWidth: 72,
    tableDepth: 48,
    units: [
      { id: "a1", side: "allies", knowledge: side === "allies" ? Knowledge.OWN : Knowledge.SEEN, position: { x: 20, y: 6 } },
      { id: "a2", side: "allies", knowledge: side === "allies" ? Knowledge.FRIENDLY : Knowledge.SEEN, position: { x: 40, y: 10 } },
      { id: "f1", side: "french", knowledge: side === "french" ? Knowledge.OWN : Knowledge.SEEN, position: { x: 30, y: 42 } },
      // A French brigade known by its base only.
      {
        id: "f2",
        side: "french",
        knowledge: side === "french" ? Knowledge.OWN : Knowledge.LAST_SEEN,
        bases: [{ center: { x: 50, y: 40 }, width: 4, depth: 1, facingDeg: 180 }],
      },
    ],
  });
}

describe("the table's frame", () => {
  const unturned = frameOf({ tableWidth: 72, tableDepth: 48 }, false);
  const turned = frameOf({ tableWidth: 72, tableDepth: 48 }, true);

  it("unturned, puts north up: the south-west corner bottom left", () => {
    expect(toScreen(unturned, { x: 0, y: 0 })).toEqual({ x: 0, y: 48 });
    expect(toScreen(unturned, { x: 72, y: 48 })).toEqual({ x: 72, y: 0 });
    expect(screenPoints(unturned, [{ x: 1, y: 2 }, { x: 3, y: 40 }])).toBe("1,46 3,8");
    expect(screenFacing(unturned, 90)).toBe(90);
  });

  it("turned, rotates the table 180° about its centre: the north edge at the bottom", () => {
    expect(toScreen(turned, { x: 0, y: 0 })).toEqual({ x: 72, y: 0 });
    expect(toScreen(turned, { x: 72, y: 48 })).toEqual({ x: 0, y: 48 });
    expect(toScreen(turned, { x: 36, y: 24 })).toEqual({ x: 36, y: 24 });
    expect(screenPoints(turned, [{ x: 1, y: 2 }, { x: 3, y: 40 }])).toBe("71,2 69,40");
    // A unit facing north faces down the screen; east faces left.
    expect(screenFacing(turned, 0)).toBe(180);
    expect(screenFacing(turned, 270)).toBe(90);
  });

  it("maps a pointer back to the point of the table drawn under it, either way up", () => {
    for (const f of [unturned, turned]) {
      for (const p of [{ x: 10.5, y: 3.25 }, { x: 0, y: 48 }, { x: 71, y: 0.5 }]) {
        expect(toTable(f, toScreen(f, p))).toEqual(p);
      }
      // The whole table fitted in an 800x400 element: its centre pixel is
      // the table's centre, and the table's own corner is where it is drawn.
      const vb = fitViewBox(72, 48, 2, 0);
      const el = { left: 0, top: 0, width: 800, height: 400 };
      const centre = toTable(f, clientToSvg(400, 200, el, vb));
      expect(centre.x).toBeCloseTo(36, 9);
      expect(centre.y).toBeCloseTo(24, 9);
      const sw = toScreen(f, { x: 0, y: 0 });
      const px = { x: ((sw.x - vb.x) / vb.w) * 800, y: ((sw.y - vb.y) / vb.h) * 400 };
      const back = toTable(f, clientToSvg(px.x, px.y, el, vb));
      expect(back.x).toBeCloseTo(0, 9);
      expect(back.y).toBeCloseTo(0, 9);
    }
  });
});

describe("which way up a seat sees the table", () => {
  it("turns it for a side whose troops stand in the half at the top", () => {
    expect(ownEdgeTurned(viewFor("french"))).toBe(true);
    expect(ownEdgeTurned(viewFor("allies"))).toBe(false);
  });

  it("never turns it for the umpire or a spectator", () => {
    expect(ownEdgeTurned(viewFor(""))).toBe(false);
    expect(decideTurn(viewFor(""), true)).toEqual({ turned: false, keep: false });
  });

  it("counts only the seat's side, not the enemy it sees or remembers", () => {
    // French brigades seen in the Allies' half do not move the Allies' edge.
    const v = viewFor("allies");
    v.units.push(create(UnitViewSchema, { id: "f3", side: "french", knowledge: Knowledge.SEEN, position: { x: 5, y: 20 } }));
    v.units.push(create(UnitViewSchema, { id: "f4", side: "french", knowledge: Knowledge.SEEN, position: { x: 9, y: 21 } }));
    expect(ownEdgeTurned(v)).toBe(false);
  });

  it("cannot tell with none of its side's troops in view", () => {
    const v = viewFor("french");
    v.units = v.units.filter((u) => u.side !== "french");
    expect(ownEdgeTurned(v)).toBeNull();
    expect(decideTurn(v, null)).toEqual({ turned: false, keep: false });
  });

  it("keeps the first decision as the army crosses the middle of the table", () => {
    const first = decideTurn(viewFor("french"), null);
    expect(first).toEqual({ turned: true, keep: true });
    const advanced = viewFor("french");
    for (const u of advanced.units) {
      if (u.position) u.position.y = 4;
      for (const b of u.bases) if (b.center) b.center.y = 4;
    }
    expect(ownEdgeTurned(advanced)).toBe(false);
    expect(decideTurn(advanced, first.turned)).toEqual({ turned: true, keep: false });
  });

  it("is kept per game and seat", () => {
    expect(turnKey(viewFor("french"))).toBe("galloper.turned.g1.french/wing");
  });
});
