import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { AnswerSchema, DecisionSchema, EventSchema, GameViewSchema, type Decision } from "@gen/galloper/v1/game_pb";
import { DecisionsOwedSchema, SeatStatusSchema, StepResolvedSchema } from "@gen/galloper/v1/protocol_pb";
import {
  blockingLock,
  decisionNamedIn,
  emptyDraft,
  withAction,
  initialPlayState,
  namedIds,
  playReducer,
  refusedStanding,
  seatChips,
  seatPhase,
  seatStanding,
  unanswered,
  type PlayAction,
  type PlayState,
} from "../src/play/state";

const initiative = create(DecisionSchema, {
  id: "initiative",
  seat: "red/army",
  kind: "initiative_order",
  prompt: "Go first or second?",
  options: [
    { id: "first", label: "First" },
    { id: "second", label: "Second" },
  ],
});
const moveB1 = create(DecisionSchema, {
  id: "move/b1",
  seat: "red/army",
  kind: "move",
  subjects: ["b1"],
  prompt: "Order for b1",
  defaultOption: "halt",
  limits: [{ name: "allowance", value: 4.5 }],
});

function owed(step: bigint, decisions: Decision[], extra: Record<string, unknown> = {}) {
  return create(DecisionsOwedSchema, { gameId: "g1", step, decisions, ...extra });
}

function run(...actions: PlayAction[]): PlayState {
  return actions.reduce(playReducer, initialPlayState("g1"));
}

describe("playReducer: DecisionsOwed", () => {
  it("takes the step, the decisions and the seat's answers so far", () => {
    const s = run({
      type: "decisions",
      owed: owed(3n, [initiative, moveB1], {
        answers: [create(AnswerSchema, { decisionId: "move/b1", steps: [{ action: "forward", distance: 2 }] })],
      }),
    });
    expect(s.step).toBe(3n);
    expect(s.decisions.map((d) => d.id)).toEqual(["initiative", "move/b1"]);
    expect(s.answered["move/b1"]).toMatchObject({ option: "", defaulted: false });
    expect(s.answered["move/b1"]!.steps[0]!.distance).toBe(2);
    // The editor starts from the order the server holds.
    expect(s.drafts["move/b1"]).toEqual([{ ...emptyDraft("forward"), distance: 2 }]);
    expect(s.locked).toBe(false);
    expect(seatPhase(s)).toBe("answering");
    expect(unanswered(s).map((d) => d.id)).toEqual(["initiative"]);
    expect(blockingLock(s).map((d) => d.id)).toEqual(["initiative"]);
  });

  it("ignores another game's and an older step's decisions", () => {
    const s = run({ type: "decisions", owed: owed(3n, [initiative]) });
    expect(playReducer(s, { type: "decisions", owed: owed(2n, [moveB1]) })).toBe(s);
    const other = create(DecisionsOwedSchema, { gameId: "g2", step: 9n, decisions: [moveB1] });
    expect(playReducer(s, { type: "decisions", owed: other })).toBe(s);
  });

  it("keeps drafts and refusals for the same step, drops them for a new one", () => {
    let s = run(
      { type: "decisions", owed: owed(3n, [moveB1]) },
      { type: "editDraft", decisionId: "move/b1", steps: [{ ...emptyDraft(), distance: 9 }] },
      { type: "answerRefused", decisionId: "move/b1", reason: "too far" },
    );
    s = playReducer(s, { type: "decisions", owed: owed(3n, [moveB1]) });
    expect(s.drafts["move/b1"]![0]!.distance).toBe(9);
    expect(s.refused["move/b1"]).toBe("too far");
    s = playReducer(s, { type: "decisions", owed: owed(4n, [moveB1]) });
    expect(s.drafts).toEqual({});
    expect(s.refused).toEqual({});
  });

  it("says when there is nothing to decide", () => {
    expect(seatPhase(initialPlayState())).toBe("waiting");
    expect(seatPhase(run({ type: "decisions", owed: owed(1n, []) }))).toBe("idle");
  });
});

describe("playReducer: answers", () => {
  const base = run({ type: "decisions", owed: owed(3n, [initiative, moveB1]) });

  it("marks an answer only when the server accepts it", () => {
    let s = playReducer(base, { type: "submitting", decisionId: "initiative" });
    expect(s.sending["initiative"]).toBe(true);
    expect(s.answered["initiative"]).toBeUndefined();
    s = playReducer(s, {
      type: "answerAccepted",
      decisionId: "initiative",
      answer: create(AnswerSchema, { decisionId: "initiative", option: "second" }),
    });
    expect(s.sending).toEqual({});
    expect(s.answered["initiative"]).toEqual({ option: "second", steps: [], defaulted: false });
    // Revising replaces it.
    s = playReducer(s, {
      type: "answerAccepted",
      decisionId: "initiative",
      answer: create(AnswerSchema, { decisionId: "initiative", option: "first" }),
    });
    expect(s.answered["initiative"]!.option).toBe("first");
  });

  it("keeps the server's reason for a refusal and the earlier answer", () => {
    let s = playReducer(base, {
      type: "answerAccepted",
      decisionId: "move/b1",
      answer: create(AnswerSchema, { decisionId: "move/b1", steps: [{ action: "forward", distance: 1 }] }),
    });
    s = playReducer(s, { type: "submitting", decisionId: "move/b1" });
    s = playReducer(s, { type: "answerRefused", decisionId: "move/b1", reason: "Brigade b1 may move 4.5\", not 6\"." });
    expect(s.refused["move/b1"]).toBe("Brigade b1 may move 4.5\", not 6\".");
    expect(s.answered["move/b1"]!.steps[0]!.distance).toBe(1);
    expect(s.sending).toEqual({});
    // Sending again clears the old reason.
    s = playReducer(s, { type: "submitting", decisionId: "move/b1" });
    expect(s.refused).toEqual({});
  });

  it("ignores an acceptance for a decision no longer owed", () => {
    const s = playReducer(base, {
      type: "answerAccepted",
      decisionId: "gone",
      answer: create(AnswerSchema, { decisionId: "gone", option: "x" }),
    });
    expect(s.answered).toEqual({});
  });
});

describe("playReducer: locking", () => {
  const base = run(
    { type: "decisions", owed: owed(3n, [initiative, moveB1]) },
    {
      type: "answerAccepted",
      decisionId: "initiative",
      answer: create(AnswerSchema, { decisionId: "initiative", option: "first" }),
    },
  );

  it("records the defaults the server took", () => {
    let s = playReducer(base, { type: "locking" });
    expect(s.locking).toBe(true);
    s = playReducer(s, { type: "answersLocked", step: 3n, defaulted: ["move/b1"] });
    expect(s.locked).toBe(true);
    expect(s.locking).toBe(false);
    expect(s.defaulted).toEqual(["move/b1"]);
    expect(s.answered["move/b1"]).toEqual({ option: "halt", steps: [], defaulted: true });
    expect(seatPhase(s)).toBe("locked");
  });

  it("shows a refused lock and which decision it names", () => {
    const msg = "decision 'move/b1' (Order for b1) has no default: answer it before locking";
    const id = decisionNamedIn(msg, base.decisions);
    expect(id).toBe("move/b1");
    const s = playReducer(base, { type: "lockRefused", reason: msg, decisionId: id });
    expect(s.locked).toBe(false);
    expect(s.lockError).toBe(msg);
    expect(s.refused["move/b1"]).toBe(msg);
    expect(decisionNamedIn("nothing here", base.decisions)).toBeUndefined();
  });

  it("takes the lock from each DecisionsOwed: a reopened step is open again, answers kept", () => {
    let s = playReducer(base, { type: "locking" });
    s = playReducer(s, { type: "answersLocked", step: 3n, defaulted: ["move/b1"], reopens: s.reopens });
    expect(seatPhase(s)).toBe("locked");
    // The answers collided when the step resolved: the notice, then what the
    // seat owes, unlocked, with the answers the server kept.
    const text = "step 3 reopened: orders collided when it resolved. Change your order(s): Order for b1.";
    s = playReducer(s, { type: "reopened", step: 3n, text });
    expect(s.notice).toBe(text);
    s = playReducer(s, {
      type: "decisions",
      owed: owed(3n, [initiative, moveB1], {
        locked: false,
        answers: [create(AnswerSchema, { decisionId: "initiative", option: "first" }), create(AnswerSchema, { decisionId: "move/b1", option: "halt" })],
      }),
    });
    expect(s.locked).toBe(false);
    expect(s.locking).toBe(false);
    expect(seatPhase(s)).toBe("answering");
    expect(s.notice).toBe(text);
    expect(s.answered["initiative"]!.option).toBe("first");
    expect(s.answered["move/b1"]!.option).toBe("halt");
    // Locking again clears the notice.
    s = playReducer(s, { type: "locking" });
    s = playReducer(s, { type: "answersLocked", step: 3n, defaulted: [], reopens: s.reopens });
    expect(s.locked).toBe(true);
    expect(s.notice).toBe("");
  });

  it("a lock reply that left the server before the step reopened does not lock the page again", () => {
    let s = playReducer(base, { type: "locking" });
    const sentAt = s.reopens;
    s = playReducer(s, { type: "reopened", step: 3n, text: "reopened" });
    s = playReducer(s, { type: "decisions", owed: owed(3n, [initiative, moveB1], { locked: false }) });
    s = playReducer(s, { type: "answersLocked", step: 3n, defaulted: [], reopens: sentAt });
    expect(s.locked).toBe(false);
    expect(s.locking).toBe(false);
    expect(seatPhase(s)).toBe("answering");
  });

  it("ignores another step's reopened notice", () => {
    expect(playReducer(base, { type: "reopened", step: 2n, text: "old" })).toBe(base);
  });

  it("shows a pushed error without unlocking", () => {
    let s = playReducer(base, { type: "answersLocked", step: 3n, defaulted: [] });
    s = playReducer(s, { type: "errorPush", code: "STORAGE", message: "the game could not be saved" });
    expect(s.locked).toBe(true);
    expect(s.notice).toBe("STORAGE: the game could not be saved");
  });
});

describe("playReducer: SeatStatus", () => {
  it("tracks who owes and who has locked, never going back a step", () => {
    let s = run({
      type: "seatStatus",
      status: create(SeatStatusSchema, { gameId: "g1", step: 3n, owing: ["red/army", "blue/army"], locked: ["blue/army"] }),
    });
    expect(seatStanding(s, "red/army")).toBe("owes");
    expect(seatStanding(s, "blue/army")).toBe("locked");
    expect(seatStanding(s, "umpire")).toBe("free");
    const older = create(SeatStatusSchema, { gameId: "g1", step: 2n, owing: ["umpire"] });
    expect(playReducer(s, { type: "seatStatus", status: older })).toBe(s);
    s = playReducer(s, { type: "seatStatus", status: create(SeatStatusSchema, { gameId: "g1", step: 4n }) });
    expect(s.owing).toEqual([]);
    expect(s.seatStatusStep).toBe(4n);
  });

  it("marks the bot's seats, owing or not, and follows the server's list", () => {
    let s = run({
      type: "seatStatus",
      status: create(SeatStatusSchema, { gameId: "g1", step: 5n, owing: ["red/army", "blue/left"], locked: ["blue/left"], bots: ["blue/left", "blue/right"] }),
    });
    expect(seatChips(s, "red/army")).toEqual([
      { seat: "red/army", standing: "owes", bot: false, mine: true },
      { seat: "blue/left", standing: "locked", bot: true, mine: false },
      { seat: "blue/right", standing: "free", bot: true, mine: false },
    ]);
    // The umpire takes blue/left back: the next status says so.
    s = playReducer(s, { type: "seatStatus", status: create(SeatStatusSchema, { gameId: "g1", step: 5n, owing: ["red/army"], bots: ["blue/right"] }) });
    expect(s.bots).toEqual(["blue/right"]);
    expect(seatChips(s, "umpire").map((c) => [c.seat, c.bot])).toEqual([
      ["red/army", false],
      ["blue/right", true],
    ]);
    expect(seatChips(initialPlayState("g1"), "umpire")).toEqual([]);
  });
});

describe("playReducer: StepResolved", () => {
  const ev = (sequence: bigint, text: string, subjects: string[] = []) =>
    create(EventSchema, { sequence, text, subjects, dice: [{ kind: "d6", face: 4, draw: 1, sides: 6 }] });

  it("appends events in sequence order, moves to the next step and clears the old one", () => {
    let s = run(
      { type: "decisions", owed: owed(3n, [initiative]) },
      { type: "answersLocked", step: 3n, defaulted: ["initiative"] },
      { type: "errorPush", code: "STORAGE", message: "disk" },
    );
    s = playReducer(s, {
      type: "stepResolved",
      resolved: create(StepResolvedSchema, {
        gameId: "g1",
        step: 3n,
        events: [ev(2n, "b"), ev(1n, "a", ["b1"])],
        view: create(GameViewSchema, { turn: 1 }),
        next: owed(4n, [moveB1]),
      }),
    });
    expect(s.events.map((e) => e.text)).toEqual(["a", "b"]);
    expect(s.step).toBe(4n);
    expect(s.decisions.map((d) => d.id)).toEqual(["move/b1"]);
    expect(s.locked).toBe(false);
    expect(s.answered).toEqual({});
    expect(s.defaulted).toEqual([]);
    expect(s.notice).toBe("");
    expect([...namedIds(s)].sort()).toEqual(["b1"]);

    // Events accumulate across steps; a repeated sequence is dropped.
    s = playReducer(s, {
      type: "stepResolved",
      resolved: create(StepResolvedSchema, { gameId: "g1", step: 4n, events: [ev(2n, "b again"), ev(3n, "c")], next: owed(5n, []) }),
    });
    expect(s.events.map((e) => e.text)).toEqual(["a", "b", "c"]);
    expect(s.events[0]!.dice[0]).toMatchObject({ kind: "d6", face: 4 });
    expect(seatPhase(s)).toBe("idle");
  });
});

describe("a step turned to another action", () => {
  const wheel = { ...emptyDraft("wheel"), angleDeg: 30, pivot: "left", distance: 0 };
  it("does not carry a wheel's angle into a forward move's deviation", () => {
    expect(withAction(wheel, "forward", ["distance", "angleDeg"])).toEqual(emptyDraft("forward"));
  });
  it("keeps what means the same to both actions when the new one reads it", () => {
    const forward = { ...emptyDraft("forward"), distance: 4.5, angleDeg: 10 };
    expect(withAction(forward, "incline", ["distance", "angleDeg"])).toEqual({ ...emptyDraft("incline"), distance: 4.5 });
    expect(withAction(forward, "about_face", [])).toEqual(emptyDraft("about_face"));
    const formation = { ...emptyDraft("formation"), formation: "line" };
    expect(withAction(formation, "reform", ["formation"])).toEqual({ ...emptyDraft("reform"), formation: "line" });
    const ride = { ...emptyDraft("move_to"), toX: 3, toY: 4, target: "b1" };
    expect(withAction(ride, "attach", ["target"])).toEqual({ ...emptyDraft("attach"), target: "b1" });
  });
});

describe("orders the server refused", () => {
  it("are the decisions whose last order was refused, until one is accepted", () => {
    const owed = create(DecisionsOwedSchema, { step: 4n, decisions: [initiative] });
    let s = playReducer(initialPlayState(), { type: "decisions", owed });
    expect(refusedStanding(s)).toEqual([]);
    s = playReducer(s, { type: "answerRefused", decisionId: initiative.id, reason: "too far" });
    expect(refusedStanding(s).map((d) => d.id)).toEqual([initiative.id]);
    s = playReducer(s, { type: "answerAccepted", decisionId: initiative.id, answer: create(AnswerSchema, { decisionId: initiative.id, option: "first" }) });
    expect(refusedStanding(s)).toEqual([]);
  });
});
