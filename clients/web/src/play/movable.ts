// Which of a seat's own units it may order by hand on the map now: a unit
// that is the subject of a decision this seat owes and has not locked, whose
// kind the ruleset answers with a step a drag can write (drag.ts). Pure: the
// map's gestures and handles ask it.
import type { Decision } from "@gen/galloper/v1/game_pb";
import type { Vocabulary } from "../game/ruleset";
import { abilityFor, allowanceOf, type MoveAbility } from "../map/drag";
import { isOwnDecision } from "./owed";
import type { PlayState } from "./state";

export interface MovableOrder {
  decision: Decision;
  ability: MoveAbility;
  // The allowance the decision states (its limits), null when none.
  allowance: number | null;
}

// The order a gesture on `unitId` writes: the active decision when it is
// about the unit, else the first about it; null when no open decision of
// this seat's lets the map order the unit.
export function movableOrder(
  state: PlayState,
  seat: string,
  unitId: string,
  words: Pick<Vocabulary, "actionsFor" | "stepFields">,
  activeDecision: string | null = null,
): MovableOrder | null {
  if (state.locked || state.locking) return null;
  const candidates: MovableOrder[] = [];
  for (const d of state.decisions) {
    if (d.subjects[0] !== unitId || !isOwnDecision(d, seat) || state.sending[d.id]) continue;
    const ability = abilityFor(words.actionsFor(d.kind), (a) => words.stepFields(a));
    if (!ability.drag && !ability.wheel) continue;
    candidates.push({ decision: d, ability, allowance: allowanceOf(d.limits) });
  }
  return candidates.find((c) => c.decision.id === activeDecision) ?? candidates[0] ?? null;
}
