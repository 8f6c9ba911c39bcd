import { describe, expect, it } from "vitest";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { GameViewSchema, ViewChangeSchema, type GameView } from "@gen/galloper/v1/game_pb";
import { applyViewChange } from "../src/protocol/viewChange";

const unit = (id: string, x: number) => ({ id, position: { x, y: 1 } });
const view = (units: ReturnType<typeof unit>[], extra: MessageInitShape<typeof GameViewSchema> = {}) =>
  create(GameViewSchema, { turn: 3, phase: "movement", terrain: [{ id: "wood" }], units, ...extra });
const ids = (v: GameView) => v.units.map((u) => `${u.id}@${u.position?.x}`);

describe("applyViewChange", () => {
  const last = view([unit("a", 1), unit("b", 2), unit("c", 3), unit("d", 4)]);

  it("keeps the units not named, puts the new and changed ones at their places, drops the gone", () => {
    const r = applyViewChange(
      last,
      view([unit("e", 9), unit("c", 3.5), unit("f", 7)], { phase: "combat", terrain: [] }),
      create(ViewChangeSchema, { unitIndex: [1, 2, 4], unitsGone: ["b"] }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(ids(r.view)).toEqual(["a@1", "e@9", "c@3.5", "d@4", "f@7"]);
    expect(r.view.phase).toBe("combat");
    expect(r.view.terrain.map((t) => t.id)).toEqual(["wood"]);  // unchanged: the last view's
    expect(ids(last)).toEqual(["a@1", "b@2", "c@3", "d@4"]);  // the last view is left as it was
  });

  it("replaces the terrain only when it changed", () => {
    const r = applyViewChange(last, view([], { terrain: [{ id: "works" }] }), create(ViewChangeSchema, { terrainChanged: true }));
    expect(r.ok && r.view.terrain.map((t) => t.id)).toEqual(["works"]);
    expect(r.ok && ids(r.view)).toEqual(ids(last));
  });

  it("refuses a change that does not fit, with a reason", () => {
    const gone = applyViewChange(last, view([]), create(ViewChangeSchema, { unitsGone: ["z"] }));
    expect(gone).toEqual({ ok: false, reason: 'the view change drops unit "z", which the last view does not hold' });
    const uncounted = applyViewChange(last, view([unit("e", 1)]), create(ViewChangeSchema, {}));
    expect(uncounted.ok || uncounted.reason).toBe("the view change places 0 units but holds 1");
    const beyond = applyViewChange(last, view([unit("e", 1)]), create(ViewChangeSchema, { unitIndex: [9] }));
    expect(beyond.ok || beyond.reason).toMatch(/at place 9, out of order or beyond the view's 5 units/);
    const backwards = applyViewChange(last, view([unit("e", 1), unit("f", 2)]), create(ViewChangeSchema, { unitIndex: [2, 1] }));
    expect(backwards.ok).toBe(false);
  });
});
