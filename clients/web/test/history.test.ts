import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { EventSchema } from "@gen/galloper/v1/game_pb";
import { historyPages, pageIndex, pageTitle } from "../src/game/history";

const ev = (sequence: number, turn: number, phase: string, step: number, dice = 0) =>
  create(EventSchema, {
    sequence: BigInt(sequence),
    turn,
    phase,
    step: BigInt(step),
    text: `e${sequence}`,
    dice: Array.from({ length: dice }, (_, i) => ({ kind: "d6", face: 1 + i, draw: i })),
  });

describe("history pages", () => {
  const events = [
    ev(1, 1, "initiative", 1, 2),
    ev(2, 1, "command", 2),
    ev(3, 1, "command", 3, 1),
    ev(4, 2, "initiative", 4, 2),
    ev(5, 2, "command", 5),
  ];

  it("groups consecutive events by turn and phase, with steps and dice", () => {
    const pages = historyPages(events);
    expect(pages.map((p) => p.key)).toEqual(["t1/initiative", "t1/command", "t2/initiative", "t2/command"]);
    expect(pages[1]!.events.map((e) => e.text)).toEqual(["e2", "e3"]);
    expect(pages[1]!.dice).toBe(1);
    expect(pageTitle(pages[1]!)).toBe("Turn 1 · command · steps 2–3");
    expect(pageTitle(pages[0]!)).toBe("Turn 1 · initiative · step 1");
  });

  it("keeps a phase seen again (after a rewind) as its own page", () => {
    const pages = historyPages([ev(1, 1, "command", 1), ev(2, 1, "movement", 2), ev(3, 1, "command", 1)]);
    expect(pages.map((p) => p.key)).toEqual(["t1/command", "t1/movement", "t1/command#2"]);
  });

  it("finds a page by key, else the newest", () => {
    const pages = historyPages(events);
    expect(pageIndex(pages, "t1/command")).toBe(1);
    expect(pageIndex(pages, null)).toBe(3);
    expect(pageIndex(pages, "gone")).toBe(3);
    expect(pageIndex([], null)).toBe(-1);
  });
});
