import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { Knowledge, UnitViewSchema } from "@gen/galloper/v1/game_pb";
import { MARKER_GAP_PX, MARKER_PX, layoutRow, statusGlyph, unitMarkers } from "../src/map/markers";

const words: Record<string, string> = { halted: "Halted", "under fire": "Under fire", "out of command": "Out of command" };
const label = (k: string) => words[k] ?? k;

describe("unit markers", () => {
  it("draws a status as a glyph, its full label as the tooltip", () => {
    const u = create(UnitViewSchema, { id: "u", status: ["halted", "under fire", "out of command", " "] });
    const m = unitMarkers(u, label);
    expect(m.map((x) => x.kind)).toEqual(["status", "status", "status"]);
    expect(m.map((x) => x.title)).toEqual(["Halted", "Under fire", "Out of command"]);
    expect(m[0]!.text).toBe(statusGlyph("halted", "Halted"));
    // Not a word cut short: one character each.
    for (const x of m) expect([...x.text]).toHaveLength(1);
  });

  it("falls back to the label's first letter for a status it has no glyph for", () => {
    expect(statusGlyph("out of command", "Out of command")).toBe("O");
    expect(statusGlyph("élan", "")).toBe("É");
    expect(statusGlyph("halted", "Angehalten")).not.toBe("A");
  });

  it("marks DPs with one numbered pip, first, and a ghost's turn last", () => {
    const u = create(UnitViewSchema, { id: "u", dps: 3, status: ["halted"], knowledge: Knowledge.LAST_SEEN, lastSeenTurn: 4 });
    const m = unitMarkers(u, label);
    expect(m.map((x) => [x.kind, x.text])).toEqual([
      ["dps", "3"],
      ["status", statusGlyph("halted", "Halted")],
      ["last-seen", "T4"],
    ]);
    expect(m[0]!.title).toBe("3 DP");
    expect(m[2]!.title).toBe("Last seen on turn 4");
    expect(unitMarkers(create(UnitViewSchema, { id: "u", dps: 12 }), label)[0]!.width).toBeGreaterThan(MARKER_PX);
    expect(unitMarkers(create(UnitViewSchema, { id: "u" }), label)).toEqual([]);
  });

  it("lays a row out centred, side by side, without overlap", () => {
    const { slots, width } = layoutRow([15, 15, 22]);
    expect(width).toBe(52 + 2 * MARKER_GAP_PX);
    expect(slots[0]!.x).toBe(-width / 2);
    const last = slots[slots.length - 1]!;
    expect(last.x + last.width).toBeCloseTo(width / 2, 9);
    for (let i = 1; i < slots.length; i++) {
      expect(slots[i]!.x).toBeGreaterThanOrEqual(slots[i - 1]!.x + slots[i - 1]!.width);
    }
    expect(layoutRow([])).toEqual({ slots: [], width: 0 });
  });
});
