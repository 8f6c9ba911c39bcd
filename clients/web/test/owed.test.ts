import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { AnswerSchema, DecisionSchema, GameViewSchema } from "@gen/galloper/v1/game_pb";
import { DecisionsOwedSchema } from "@gen/galloper/v1/protocol_pb";
import { isOwnDecision, owedHeadline, owedStatus, owedSummary, ownState, shortLabel } from "../src/play/owed";
import { blockingLock, initialPlayState, playReducer, seatPhase, type PlayAction, type PlayState } from "../src/play/state";

const view = create(GameViewSchema, { units: [{ id: "b1", name: "Régiment du Roi" }, { id: "g1", name: "Blue battery" }] });
const kindLabel = (k: string) => ({ move: "Movement order", artillery_fire: "Fire" })[k] ?? k;

const d = (id: string, seat: string, extra: Record<string, unknown> = {}) => create(DecisionSchema, { id, seat, kind: "move", prompt: `Order for ${id}`, ...extra });
const move = d("move/b1", "red/army", { subjects: ["b1"], defaultOption: "halt" });
const fire = d("fire/g1", "red/army", { kind: "artillery_fire", subjects: ["g1"], options: [{ id: "hold" }, { id: "b9" }] });
const initiative = d("initiative", "red/army", { kind: "initiative_order", prompt: "Go first or second?" });
const theirs = d("move/x1", "blue/army", { subjects: ["x1"] });

function run(state: PlayState, ...actions: PlayAction[]): PlayState {
  return actions.reduce(playReducer, state);
}
const owed = (decisions = [move, fire, initiative]) =>
  run(initialPlayState("g"), { type: "decisions", owed: create(DecisionsOwedSchema, { gameId: "g", step: 7n, decisions }) });

describe("what the seat owes now", () => {
  it("counts each decision by the server's verdict only", () => {
    const s = run(
      owed(),
      { type: "submitting", decisionId: "move/b1" },
      { type: "answerAccepted", decisionId: "move/b1", answer: create(AnswerSchema, { decisionId: "move/b1", option: "halt" }) },
      { type: "submitting", decisionId: "fire/g1" },
      { type: "answerRefused", decisionId: "fire/g1", reason: "b9 is out of sight" },
    );
    const sum = owedSummary(s, "red/army", view, kindLabel);
    expect(sum.entries.map((e) => [e.decisionId, e.status])).toEqual([
      ["move/b1", "answered"],
      ["fire/g1", "refused"],
      ["initiative", "unanswered"],
    ]);
    expect(sum.counts).toMatchObject({ answered: 1, refused: 1, unanswered: 1, sending: 0 });
    expect(owedHeadline(sum)).toBe("Step 7: you owe 3 decisions: 1 unanswered, 1 refused, 1 answered.");
  });

  it("a refusal gives way to the answer the server accepts after it", () => {
    const s = run(
      owed(),
      { type: "answerRefused", decisionId: "fire/g1", reason: "no" },
      { type: "submitting", decisionId: "fire/g1" },
    );
    expect(owedStatus(s, "fire/g1")).toBe("sending");
    const after = run(s, { type: "answerAccepted", decisionId: "fire/g1", answer: create(AnswerSchema, { decisionId: "fire/g1", option: "hold" }) });
    expect(owedStatus(after, "fire/g1")).toBe("answered");
  });

  it("says when the seat has locked and what the lock defaulted", () => {
    const s = run(owed(), { type: "locking" }, { type: "answersLocked", step: 7n, defaulted: ["move/b1"] });
    const sum = owedSummary(s, "red/army", view, kindLabel);
    expect(sum.entries.find((e) => e.decisionId === "move/b1")?.status).toBe("defaulted");
    expect(owedHeadline(sum)).toBe("Step 7: you owe 3 decisions, locked.");
  });

  it("names a decision by the ruleset's word and its subject, else its prompt", () => {
    expect(shortLabel(move, view, kindLabel)).toBe("Movement order: Régiment du Roi");
    expect(shortLabel(fire, view, kindLabel)).toBe("Fire: Blue battery");
    expect(shortLabel(initiative, view, kindLabel)).toBe("Go first or second?");
    // A ruleset that did not describe the kind: the subject's name alone, never the key.
    expect(shortLabel(move, view, (k) => k)).toBe("Régiment du Roi");
  });

  it("before any DecisionsOwed, and with nothing owed", () => {
    expect(owedHeadline(owedSummary(initialPlayState("g"), "red/army", null, kindLabel))).toBe("Waiting for the server…");
    expect(owedHeadline(owedSummary(owed([]), "red/army", null, kindLabel))).toBe("You owe nothing at step 7.");
  });
});

describe("the umpire's page holds every seat's decisions, and owes only its own", () => {
  const s = owed([theirs, move]);

  it("another seat's decision is not the umpire's", () => {
    expect(isOwnDecision(theirs, "umpire")).toBe(false);
    expect(isOwnDecision(create(DecisionSchema, { id: "x", seat: "umpire" }), "umpire")).toBe(true);
    // A decision sent without a seat was sent as owed.
    expect(isOwnDecision(create(DecisionSchema, { id: "x" }), "red/army")).toBe(true);
  });

  it("owes nothing, and nothing blocks a lock, for other seats' decisions", () => {
    const own = ownState(s, "umpire");
    expect(own.decisions).toEqual([]);
    expect(seatPhase(own)).toBe("idle");
    expect(blockingLock(own)).toEqual([]);
    expect(owedSummary(s, "umpire", view, kindLabel).entries).toEqual([]);
    // A seat's own page is unchanged.
    expect(ownState(s, "red/army").decisions.map((x) => x.id)).toEqual(["move/b1"]);
    const mine = owed();
    expect(ownState(mine, "red/army")).toBe(mine);
  });
});
