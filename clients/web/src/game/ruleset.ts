// The words of a game's ruleset, as the server sends them (RulesetInfo, in
// Joined and in each ScenarioInfo): which actions answer which decision,
// what each action's step reads, the formations an order may ask for, the
// umpire's edit kinds, the units' statuses and the table's unit. Nothing
// here knows a ruleset by name; a ruleset the server has not described gets
// the plain keys.
import type { OddsDice, RulesetInfo } from "@gen/galloper/v1/protocol_pb";

// The fields of an order step an action reads (RulesetInfo.step_actions).
export type StepField = "distance" | "angleDeg" | "pivot" | "side" | "formation" | "to" | "target";
export type EditField = "x" | "y" | "facing" | "value" | "key" | "flag";

export interface EditKind {
  kind: string;
  label: string;
  fields: EditField[];
  keyLabel?: string;
}

const STEP_FIELDS: Record<string, StepField> = {
  distance: "distance",
  angle_deg: "angleDeg",
  pivot: "pivot",
  side: "side",
  formation: "formation",
  to: "to",
  target: "target",
};
const EDIT_FIELDS = new Set<string>(["x", "y", "facing", "value", "key", "flag"]);

export class Vocabulary {
  constructor(private readonly info?: RulesetInfo) {}

  get name(): string {
    return this.info?.name ?? "";
  }

  // The table unit, for "n inches": singular for 1.
  unit(n = 2): string {
    if (!this.info?.unitName) return n === 1 ? "unit" : "units";
    return n === 1 ? this.info.unitName : this.info.unitPlural || this.info.unitName;
  }

  get scale(): string {
    return this.info?.scale ?? "";
  }

  // Every action a step may take, in the ruleset's order.
  allActions(): string[] {
    return (this.info?.stepActions ?? []).map((a) => a.key);
  }

  // The actions that answer a kind of decision, those first offered, or
  // undefined when the ruleset names none for it.
  actionsFor(decisionKind: string): string[] | undefined {
    return this.info?.orders.find((o) => o.decisionKind === decisionKind)?.actions;
  }

  actionLabel(action: string): string {
    return this.info?.stepActions.find((a) => a.key === action)?.label ?? action;
  }

  // The fields a step of `action` reads; every field for an action the
  // ruleset did not describe (the server says what it needs).
  stepFields(action: string): StepField[] {
    const known = this.info?.stepActions.find((a) => a.key === action);
    if (!known) return Object.values(STEP_FIELDS);
    return known.fields.map((f) => STEP_FIELDS[f]).filter((f): f is StepField => f !== undefined);
  }

  // The counts of dice the odds of answering a kind of decision may assume
  // (a charge's move dice), or undefined when it takes none.
  oddsDice(decisionKind: string): OddsDice | undefined {
    return this.info?.oddsDice.find((o) => o.decisionKind === decisionKind);
  }

  decisionLabel(kind: string): string {
    return this.info?.decisionKinds.find((t) => t.key === kind)?.label ?? kind;
  }

  // A unit status's word (UnitView.status holds the keys); the key itself
  // for one the ruleset did not describe.
  statusLabel(key: string): string {
    return this.info?.statuses.find((t) => t.key === key)?.label || key;
  }

  // A formation's word (UnitView.formation and an order's formation hold the key).
  formationLabel(key: string): string {
    return this.info?.formations.find((t) => t.key === key)?.label || key;
  }

  // A troop type's word (UnitView.troop_type holds the key).
  troopTypeLabel(key: string): string {
    return this.info?.troopTypes.find((t) => t.key === key)?.label || key;
  }

  formations(): string[] {
    return (this.info?.formations ?? []).map((t) => t.key);
  }

  editKinds(): EditKind[] {
    return (this.info?.editKinds ?? []).map((k) => ({
      kind: k.kind,
      label: k.label,
      fields: k.fields.filter((f): f is EditField => EDIT_FIELDS.has(f)),
      ...(k.keyLabel ? { keyLabel: k.keyLabel } : {}),
    }));
  }
}
