import { describe, expect, it } from "vitest";
import { Knowledge } from "@gen/galloper/v1/game_pb";
import { declutterLabels, labelPriority, labelSize, overlaps, type Box, type LabelRequest } from "../src/map/declutter";

const unit = (x: number, y: number, w = 40, h = 10): Box => ({ x, y, w, h });
const req = (id: string, around: Box, priority = 2, order = 0, width = 60, height = 14): LabelRequest => ({
  id,
  priority,
  order,
  width,
  height,
  around,
});

function placedBoxes(m: Map<string, Box | null>): Box[] {
  return [...m.values()].filter((b): b is Box => b !== null);
}

describe("unit names decluttered", () => {
  it("puts a lone name under its unit, centred", () => {
    const m = declutterLabels([req("a", unit(100, 100))]);
    expect(m.get("a")).toEqual({ x: 90, y: 112, w: 60, h: 14 });
  });

  it("never lets two names overlap, moving or dropping the later ones", () => {
    // Five units in a tight column: every name wants the same place.
    const reqs = [0, 1, 2, 3, 4].map((i) => req(`u${i}`, unit(100, 100 + i * 12), 2, i));
    const m = declutterLabels(reqs);
    const boxes = placedBoxes(m);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i]!, boxes[j]!)).toBe(false);
    expect(boxes.length).toBeGreaterThan(1);
    expect(boxes.length).toBeLessThan(5);
    expect(m.get("u0")).not.toBeNull();
  });

  it("places the most wanted names first, whatever the input order", () => {
    const around = unit(100, 100);
    const reqs = [req("enemy", around, 2, 0), req("mine", around, 0, 1), req("chosen", around, 1, 2)];
    const m = declutterLabels(reqs);
    // All three fit around the one box; mine gets the first place, below.
    expect(m.get("mine")!.y).toBe(112);
    expect(m.get("chosen")!.y).toBeLessThan(100);
    const again = declutterLabels([...reqs].reverse());
    expect(again).toEqual(m);
  });

  it("keeps names off the marker rows, and off other units where it can", () => {
    const a = unit(100, 100);
    const row: Box = { x: 100, y: 112, w: 40, h: 15 }; // a marker row right under a
    const m = declutterLabels([req("a", a)], [row]);
    expect(overlaps(m.get("a")!, row)).toBe(false);
    // Below a is another unit's body: the name goes above instead.
    const b = unit(100, 113);
    const m2 = declutterLabels([req("a", a)], [], [{ id: "a", box: a }, { id: "b", box: b }]);
    expect(m2.get("a")!.y + 14).toBeLessThanOrEqual(100);
    // Boxed in on every side by bodies alone, the name still shows.
    const around = [unit(100, 113), unit(100, 73), unit(142, 100), unit(-2, 100, 100)].map((box, i) => ({ id: `o${i}`, box }));
    expect(declutterLabels([req("a", a)], [], around).get("a")).not.toBeNull();
  });

  it("ranks own units, then the selected one, then the rest, ghosts last", () => {
    const own = { id: "o", knowledge: Knowledge.OWN };
    const seen = { id: "s", knowledge: Knowledge.SEEN };
    const ghost = { id: "g", knowledge: Knowledge.LAST_SEEN };
    expect(labelPriority(own, null)).toBeLessThan(labelPriority(seen, "s"));
    expect(labelPriority(seen, "s")).toBeLessThan(labelPriority(seen, null));
    expect(labelPriority(seen, null)).toBeLessThan(labelPriority(ghost, null));
    expect(labelPriority({ id: "u", knowledge: Knowledge.UMPIRE }, null)).toBe(labelPriority(seen, null));
  });

  it("sizes a name by its length", () => {
    expect(labelSize("Régiment du Roi").width).toBeGreaterThan(labelSize("Roi").width);
    expect(labelSize("Roi").height).toBe(labelSize("Régiment du Roi").height);
  });
});
