import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { DecisionSchema } from "@gen/galloper/v1/game_pb";
import { RulesetInfoSchema } from "@gen/galloper/v1/protocol_pb";
import { Vocabulary } from "../src/game/ruleset";
import {
  abilityFor,
  allowanceOf,
  bearing,
  describeDrag,
  dragStep,
  handleAt,
  onPlacement,
  turnBetween,
  wheelHandles,
  wheelStep,
} from "../src/map/drag";
import { rectCorners, type Vec } from "../src/map/geometry";
import { frameOf, toTable, type TableFrame } from "../src/map/orientation";
import { placementOf, previewPath, type UnitShape } from "../src/map/preview";
import { movableOrder } from "../src/play/movable";
import { emptyDraft, initialPlayState, type DraftStep, type PlayState } from "../src/play/state";

// The words of two rulesets as their servers describe them (RulesetInfo):
// Malbrook's forward step reads a deviation, CF&EO's only a distance.
const malbrook = new Vocabulary(
  create(RulesetInfoSchema, {
    name: "malbrook",
    unitName: "inch",
    unitPlural: "inches",
    stepActions: [
      { key: "forward", label: "Forward", fields: ["distance", "angle_deg"] },
      { key: "wheel", label: "Wheel", fields: ["pivot", "angle_deg"] },
      { key: "move_to", label: "Move to", fields: ["to"] },
      { key: "objective", label: "Objective", fields: ["to"] },
    ],
    orders: [
      { decisionKind: "move", actions: ["forward", "wheel"] },
      { decisionKind: "leader_move", actions: ["move_to"] },
      { decisionKind: "move_dice", actions: ["objective"] },
    ],
  }),
);
const cfeo = new Vocabulary(
  create(RulesetInfoSchema, {
    name: "cfeo",
    unitName: "yard",
    unitPlural: "yards",
    stepActions: [
      { key: "forward", label: "Forward", fields: ["distance"] },
      { key: "wheel", label: "Wheel", fields: ["pivot", "angle_deg"] },
    ],
    orders: [{ decisionKind: "move", actions: ["forward", "wheel"] }],
  }),
);
const ability = (w: Vocabulary, kind: string) => abilityFor(w.actionsFor(kind), (a) => w.stepFields(a));

// A line of two 2"x1" bases, its front edge 4" wide centred on `at`.
function line(at: Vec, facingDeg: number): UnitShape {
  const f = { x: Math.sin((facingDeg * Math.PI) / 180), y: Math.cos((facingDeg * Math.PI) / 180) };
  const r = { x: f.y, y: -f.x };
  const base = (across: number) => ({
    center: { x: at.x + r.x * across - f.x * 0.5, y: at.y + r.y * across - f.y * 0.5 },
    width: 2,
    depth: 1,
    facingDeg,
  });
  return { position: at, facingDeg, bases: [base(-1), base(1)] };
}

const noSnap = { allowance: null, snap: 0 };

function expectVec(got: Vec, want: Vec, digits = 9): void {
  expect(got.x).toBeCloseTo(want.x, digits);
  expect(got.y).toBeCloseTo(want.y, digits);
}

// A pointer's drag on the screen (SVG user space) as a table vector, through
// the map's frame: what the page hands dragStep.
function tableDelta(frame: TableFrame, from: Vec, to: Vec): Vec {
  const a = toTable(frame, from);
  const b = toTable(frame, to);
  return { x: b.x - a.x, y: b.y - a.y };
}

describe("what a drag may write", () => {
  it("follows the actions the ruleset gives a kind of decision and the fields they read", () => {
    expect(ability(malbrook, "move")).toEqual({ drag: "deviate", wheel: true });
    expect(ability(cfeo, "move")).toEqual({ drag: "forward", wheel: true });
    expect(ability(malbrook, "leader_move")).toEqual({ drag: "move_to", wheel: false });
    // Move dice are chosen, not dragged.
    expect(ability(malbrook, "move_dice")).toEqual({ drag: null, wheel: false });
    expect(ability(malbrook, "charge_declaration")).toEqual({ drag: null, wheel: false });
  });

  it("reads the allowance from the decision's limits, by the names the rulesets state it under", () => {
    expect(allowanceOf([{ name: "double", value: 0 }, { name: "allowance", value: 4.5 }])).toBe(4.5);
    expect(allowanceOf([{ name: "max_distance", value: 120 }])).toBe(120);
    expect(allowanceOf([{ name: "actions", value: 2 }, { name: "move", value: 12 }])).toBe(12);
    // A manoeuvre without dice states an allowance of 0: shown as stated.
    expect(allowanceOf([{ name: "allowance", value: 0 }])).toBe(0);
    expect(allowanceOf([{ name: "gap", value: 3 }])).toBeNull();
  });
});

describe("dragging a unit", () => {
  const north = placementOf(line({ x: 10, y: 10 }, 0));

  it("straight ahead writes a forward step of the drag's length, to a tenth", () => {
    const r = dragStep("deviate", north, { x: 0, y: 3.04 }, noSnap);
    expect(r?.step).toEqual({ ...emptyDraft("forward"), distance: 3, angleDeg: 0 });
    expect(r?.distance).toBe(3);
  });

  it("off the facing writes the deviation, clockwise positive, to a degree", () => {
    const d = 4;
    const right = dragStep("deviate", north, { x: d * Math.sin(0.2), y: d * Math.cos(0.2) }, noSnap);
    expect(right?.step.angleDeg).toBe(Math.round((0.2 * 180) / Math.PI)); // 11°
    expect(right?.step.distance).toBe(4);
    const left = dragStep("deviate", north, { x: -1, y: 3 }, noSnap);
    expect(left?.step.angleDeg).toBe(-18);
    // The step the preview draws from it ends where the drag did.
    const pv = previewPath(line({ x: 10, y: 10 }, 0), [{ ...left!.step, to: undefined }]);
    expectVec(pv.steps[0]!.placement.frontMid, { x: 9, y: 13 }, 1);
  });

  it("snaps onto the allowance the decision states when it ends that close, and not otherwise", () => {
    const opts = { allowance: 4.5, snap: 0.2 };
    expect(dragStep("deviate", north, { x: 0, y: 4.37 }, opts)?.step.distance).toBe(4.5);
    expect(dragStep("deviate", north, { x: 0, y: 4.63 }, opts)?.step.distance).toBe(4.5);
    expect(dragStep("deviate", north, { x: 0, y: 4.2 }, opts)?.step.distance).toBe(4.2);
    // Beyond it: written as dragged; the server rules on it.
    expect(dragStep("deviate", north, { x: 0, y: 6 }, opts)?.step.distance).toBe(6);
    // No allowance stated, or none to move: no snapping.
    expect(dragStep("deviate", north, { x: 0, y: 0.1 }, { allowance: 0, snap: 0.2 })?.step.distance).toBe(0.1);
  });

  it("writes only the part along the facing where the forward step reads no deviation", () => {
    const r = dragStep("forward", north, { x: 2, y: 3 }, noSnap);
    expect(r?.step).toEqual({ ...emptyDraft("forward"), distance: 3 });
    expect(dragStep("forward", north, { x: 2, y: -3 }, noSnap)).toBeNull();
    expect(dragStep("deviate", north, { x: 0, y: 0.01 }, noSnap)).toBeNull();
  });

  it("writes a leader's move as the point its front's middle is dropped at", () => {
    const leader = placementOf({ position: { x: 5, y: 5 }, facingDeg: 90, bases: [] });
    const r = dragStep("move_to", leader, { x: 2.04, y: -1.46 }, noSnap);
    expect(r?.step).toEqual({ ...emptyDraft("move_to"), toX: 7, toY: 3.5 });
    expect(r?.distance).toBe(2.5);
  });

  it("on a table turned to the other side's edge, moves where the pointer went on the screen", () => {
    // A 36x24 table; Blue stands near the north edge facing south, so its
    // seat sees the table turned: north at the bottom of the screen.
    const turned = frameOf({ tableWidth: 36, tableDepth: 24 }, true);
    const blue = placementOf(line({ x: 12, y: 18 }, 180));
    // Up the screen (SVG y falls) is south: straight ahead for Blue.
    const up = tableDelta(turned, { x: 24, y: 18 }, { x: 24, y: 15 });
    expectVec(up, { x: 0, y: -3 });
    expect(dragStep("deviate", blue, up, noSnap)?.step).toEqual({ ...emptyDraft("forward"), distance: 3, angleDeg: 0 });
    expect(dragStep("forward", blue, up, noSnap)?.step.distance).toBe(3);
    // Up and to the right on the screen is south-west: to Blue's right.
    const upRight = tableDelta(turned, { x: 24, y: 18 }, { x: 25, y: 15 });
    expect(dragStep("deviate", blue, upRight, noSnap)?.step.angleDeg).toBe(18);
    // The same gesture on the unturned table is north: behind Blue.
    const unturned = frameOf({ tableWidth: 36, tableDepth: 24 }, false);
    expect(dragStep("forward", blue, tableDelta(unturned, { x: 24, y: 18 }, { x: 24, y: 15 }), noSnap)).toBeNull();
  });
});

describe("wheel handles", () => {
  const shape = line({ x: 10, y: 10 }, 0);
  const north = placementOf(shape);

  it("sit on the front corners; each wheels about the other corner", () => {
    const [right, left] = wheelHandles(north);
    expect(right!.corner).toBe("right");
    expect(right!.pivot).toBe("left");
    expectVec(right!.at, { x: 12, y: 10 });
    expectVec(right!.pivotAt, { x: 8, y: 10 });
    expect(left!.corner).toBe("left");
    expect(left!.pivot).toBe("right");
    expectVec(left!.at, { x: 8, y: 10 });
  });

  it("write the angle the corner is turned through about the pivot, clockwise positive, as the typed form does", () => {
    const [right, left] = wheelHandles(north);
    // The right corner brought forward turns the line anticlockwise about its left corner.
    const p30 = { x: 8 + 4 * Math.cos(Math.PI / 6), y: 10 + 4 * Math.sin(Math.PI / 6) };
    expect(wheelStep(right!, p30)).toEqual({ ...emptyDraft("wheel"), pivot: "left", angleDeg: -30 });
    // The left corner brought forward: clockwise about the right corner.
    expect(wheelStep(left!, { x: 12 - 4 * Math.cos(Math.PI / 4), y: 10 + 4 * Math.sin(Math.PI / 4) })).toEqual({
      ...emptyDraft("wheel"),
      pivot: "right",
      angleDeg: 45,
    });
    // The distance from the pivot does not matter, only the bearing.
    expect(wheelStep(right!, { x: 8 + 10 * Math.cos(Math.PI / 6), y: 10 + 10 * Math.sin(Math.PI / 6) })?.angleDeg).toBe(-30);
    // Not turned: nothing to write.
    expect(wheelStep(right!, { x: 14, y: 10 })).toBeNull();
  });

  it("the preview of the written wheel puts the dragged corner on the pointer's bearing", () => {
    for (const facing of [0, 180, 37]) {
      const s = line({ x: 20, y: 12 }, facing);
      for (const hd of wheelHandles(placementOf(s))) {
        const pointer = { x: hd.pivotAt.x + 3, y: hd.pivotAt.y + 5 };
        const step = wheelStep(hd, pointer)!;
        const pv = previewPath(s, [{ ...step, to: undefined }]);
        const corners = rectCorners(pv.steps[0]!.placement.envelope);
        const corner = hd.corner === "right" ? corners[1] : corners[0];
        const want = bearing({ x: pointer.x - hd.pivotAt.x, y: pointer.y - hd.pivotAt.y });
        const got = bearing({ x: corner.x - hd.pivotAt.x, y: corner.y - hd.pivotAt.y });
        expect(Math.abs(turnBetween(got, want))).toBeLessThanOrEqual(0.5 + 1e-9);
      }
    }
  });

  it("on a turned table, turn as the pointer turned on the screen", () => {
    const turned = frameOf({ tableWidth: 36, tableDepth: 24 }, true);
    const s = line({ x: 12, y: 18 }, 180); // Blue, facing south, seen from its own edge
    const [right] = wheelHandles(placementOf(s));
    // Blue's right is west: on the turned screen its right corner is on the right.
    expectVec(right!.at, { x: 10, y: 18 });
    // Dragged up the screen (forward, for Blue) about the left corner:
    // anticlockwise on the screen, anticlockwise on the table.
    const pointer = toTable(turned, { x: 36 - 10, y: 18 - 2 }); // 2 up the screen from the corner
    const step = wheelStep(right!, pointer)!;
    expect(step.pivot).toBe("left");
    expect(step.angleDeg).toBe(-27); // atan(2/4)
  });

  it("answer a press within reach, the nearest first", () => {
    const handles = wheelHandles(north);
    expect(handleAt(handles, { x: 12.1, y: 10.1 }, 0.3)?.corner).toBe("right");
    expect(handleAt(handles, { x: 7.8, y: 10 }, 0.3)?.corner).toBe("left");
    expect(handleAt(handles, { x: 10, y: 10 }, 0.3)).toBeNull();
  });
});

describe("pressing on a footprint", () => {
  it("hits its bases, grown by a margin", () => {
    const p = placementOf(line({ x: 10, y: 10 }, 0));
    expect(onPlacement(p, { x: 9, y: 9.5 })).toBe(true);
    expect(onPlacement(p, { x: 10, y: 10.2 })).toBe(false);
    expect(onPlacement(p, { x: 10, y: 10.2 }, 0.3)).toBe(true);
    expect(onPlacement(p, { x: 13, y: 9.5 })).toBe(false);
  });
});

describe("what the map says while dragging", () => {
  const inches = (n: number) => malbrook.unit(n);

  it("a forward step against the allowance, and whether the drag alone goes beyond it", () => {
    const fwd: DraftStep = { ...emptyDraft("forward"), distance: 3.5, angleDeg: -5 };
    expect(describeDrag(fwd, 3.5, 4.5, inches)).toEqual({ text: "Forward 3.5 inches, 5° left of the facing — allowance 4.5 inches", over: false });
    expect(describeDrag({ ...fwd, distance: 5, angleDeg: 0 }, 5, 4.5, inches)).toEqual({ text: "Forward 5 inches — allowance 4.5 inches", over: true });
    expect(describeDrag({ ...fwd, distance: 1, angleDeg: 0 }, 1, null, inches).text).toBe("Forward 1 inch");
  });

  it("a wheel by its turn and pivot; a leader's move by its point", () => {
    expect(describeDrag({ ...emptyDraft("wheel"), pivot: "left", angleDeg: -30 }, null, 4, inches).text).toBe(
      "Wheel 30° anticlockwise about the left front corner",
    );
    expect(describeDrag({ ...emptyDraft("move_to"), toX: 7, toY: 3.5 }, 2.5, 6, inches).text).toBe("Move to (7, 3.5): 2.5 inches — allowance 6 inches");
  });
});

describe("which unit the map may order", () => {
  const decision = (id: string, kind: string, seat: string, subject: string, limits: { name: string; value: number }[] = []) =>
    create(DecisionSchema, { id, kind, seat, subjects: [subject], limits });
  const state = (patch: Partial<PlayState>): PlayState => ({
    ...initialPlayState("g"),
    step: 5n,
    decisions: [
      decision("dice/b1", "move_dice", "blue/west", "b1"),
      decision("move/b1", "move", "blue/west", "b1", [{ name: "allowance", value: 4.5 }]),
      decision("move/b2", "move", "blue/east", "b2"),
      decision("leader/l1", "leader_move", "blue/west", "l1", [{ name: "max_distance", value: 6 }]),
    ],
    ...patch,
  });

  it("a unit this seat owes an open move for, with the allowance stated", () => {
    const m = movableOrder(state({}), "blue/west", "b1", malbrook);
    expect(m?.decision.id).toBe("move/b1");
    expect(m?.ability).toEqual({ drag: "deviate", wheel: true });
    expect(m?.allowance).toBe(4.5);
    expect(movableOrder(state({}), "blue/west", "l1", malbrook)?.ability.drag).toBe("move_to");
  });

  it("not another seat's unit (the umpire's page shows them), nor once locked or while sending", () => {
    expect(movableOrder(state({}), "blue/west", "b2", malbrook)).toBeNull();
    expect(movableOrder(state({}), "umpire", "b1", malbrook)).toBeNull();
    expect(movableOrder(state({ locked: true }), "blue/west", "b1", malbrook)).toBeNull();
    expect(movableOrder(state({ sending: { "move/b1": true } }), "blue/west", "b1", malbrook)).toBeNull();
  });
});
