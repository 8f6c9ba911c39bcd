import { describe, expect, it } from "vitest";
import { Knowledge, TerrainKind, UnitKind } from "@gen/galloper/v1/game_pb";
import { SIDE_COLOURS, TERRAIN_STYLES, hillFill, sideColour, unitLayer } from "../src/map/style";

describe("map style", () => {
  it("shades hills darker with elevation, relative to the highest", () => {
    expect(hillFill(0, 2)).toBe("#e8dcb4");
    expect(hillFill(2, 2)).toBe("#9c7a4c");
    expect(hillFill(5, 2)).toBe("#9c7a4c");
    // A lone hill 1 unit high is mid-tone, not the darkest.
    expect(hillFill(1, 1)).toBe(hillFill(1, 2));
    expect(hillFill(1, 1)).not.toBe("#9c7a4c");
    const lum = (c: string) => parseInt(c.slice(1, 3), 16) + parseInt(c.slice(3, 5), 16) + parseInt(c.slice(5, 7), 16);
    expect(lum(hillFill(1, 3))).toBeGreaterThan(lum(hillFill(2, 3)));
  });

  it("has a style for every terrain kind", () => {
    for (const k of Object.values(TerrainKind).filter((v): v is TerrainKind => typeof v === "number")) {
      expect(TERRAIN_STYLES[k], `TerrainKind ${k}`).toBeDefined();
    }
  });

  it("colours sides by their order, stably for unknown ones", () => {
    const sides = [{ id: "red" }, { id: "blue" }];
    expect(sideColour("red", sides)).toBe(SIDE_COLOURS[0]);
    expect(sideColour("blue", sides)).toBe(SIDE_COLOURS[1]);
    expect(sideColour("green", sides)).toBe(sideColour("green", sides));
  });

  it("layers ghosts under troops under leaders", () => {
    expect(unitLayer(UnitKind.BRIGADE, Knowledge.LAST_SEEN)).toBeLessThan(unitLayer(UnitKind.BRIGADE, Knowledge.SEEN));
    expect(unitLayer(UnitKind.BRIGADE, Knowledge.OWN)).toBeLessThan(unitLayer(UnitKind.LEADER, Knowledge.OWN));
  });
});
