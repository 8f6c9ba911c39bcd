// Orders given on the map by hand: a press on one of the seat's own units
// with an open move decision drags it (a new order: the step the drag
// writes), a press on the ghost where its drafted order ends drags on from
// there (one more step), a press on a wheel handle wheels it. While the
// pointer moves, the page previews the steps and the map says what they
// are against the allowance; on release the steps become the decision's
// draft, exactly as if typed into the orders panel, to send and lock there.
// Escape (or a second finger) drops the gesture and the draft stays as it was.
import type { GameView, UnitView } from "@gen/galloper/v1/game_pb";
import type { Vocabulary } from "../game/ruleset";
import { describeDrag, dragStep, handleAt, onPlacement, wheelHandles, wheelStep, type WheelHandle } from "../map/drag";
import type { Vec } from "../map/geometry";
import { placementOf, previewPath, type Placement } from "../map/preview";
import type { MapGesture } from "../map/tableMap";
import { movableOrder, type MovableOrder } from "../play/movable";
import type { DraftStep, PlayState } from "../play/state";

// A wheel handle or the ghost answers a press this many screen pixels away;
// a drag ending this near the stated allowance is taken as the allowance.
const HANDLE_REACH_PX = 16;
const GHOST_MARGIN_PX = 4;
const SNAP_PX = 10;

export interface MoveOnMapHost {
  view(): GameView | null;
  play(): PlayState;
  seat(): string;
  words(): Vocabulary;
  activeDecision(): string | null;
  selected(): string | null;
  select(unitId: string): void;
  // The steps being dragged for a decision (null: the gesture is over).
  preview(decisionId: string, steps: DraftStep[] | null): void;
  // The gesture's steps, released: the decision's draft from now on.
  commit(decisionId: string, steps: DraftStep[]): void;
  readout(text: string | null, tool?: string, over?: boolean): void;
}

export class MoveOnMap {
  constructor(private readonly host: MoveOnMapHost) {}

  // The wheel handles to draw on the selected unit: on the corners of its
  // footprint where its drafted order ends (its own, with none).
  handlesFor(unitId: string | null): WheelHandle[] | null {
    const ctx = unitId ? this.context(unitId) : null;
    if (!ctx || !ctx.order.ability.wheel || !ctx.end) return null;
    return wheelHandles(ctx.end);
  }

  // A press at a table point: a gesture, or null to leave it to the map.
  press(at: Vec, target: Element | null, unitsPerPx: number): MapGesture | null {
    // The selected unit's handles and ghost lie over other units: they first.
    const sel = this.host.selected();
    const selCtx = sel ? this.context(sel) : null;
    if (selCtx?.end) {
      if (selCtx.order.ability.wheel) {
        const hd = handleAt(wheelHandles(selCtx.end), at, HANDLE_REACH_PX * unitsPerPx);
        if (hd) return this.wheelGesture(selCtx, hd);
      }
      if (selCtx.order.ability.drag && selCtx.draft.length > 0 && onPlacement(selCtx.end, at, GHOST_MARGIN_PX * unitsPerPx)) {
        return this.dragGesture(selCtx, selCtx.end, selCtx.draft, at, unitsPerPx);
      }
    }
    const id = (target?.closest?.("g.unit") as SVGGElement | null)?.dataset.unitId;
    const ctx = id ? this.context(id) : null;
    if (!ctx || !ctx.order.ability.drag) return null;
    // Grabbing the unit itself starts its order again.
    return this.dragGesture(ctx, placementOf(ctx.unit), [], at, unitsPerPx);
  }

  private dragGesture(ctx: Context, from: Placement, before: DraftStep[], start: Vec, unitsPerPx: number): MapGesture {
    const kind = ctx.order.ability.drag!;
    const id = ctx.order.decision.id;
    const words = this.host.words();
    // Only a whole order of one step may snap onto the allowance.
    const snap = before.length === 0 ? SNAP_PX * unitsPerPx : 0;
    let steps: DraftStep[] | null = null;
    this.host.select(ctx.unit.id);
    return {
      move: (at) => {
        const r = dragStep(kind, from, { x: at.x - start.x, y: at.y - start.y }, { allowance: ctx.order.allowance, snap });
        steps = r ? [...before, r.step] : null;
        this.host.preview(id, steps ?? before);
        if (!r) return this.host.readout("Drag forward to move.", "move");
        const said = describeDrag(r.step, r.distance, ctx.order.allowance, (n) => words.unit(n));
        this.host.readout(numbered(said.text, before.length), "move", said.over);
      },
      end: () => this.finish(id, steps),
      cancel: () => this.finish(id, null),
    };
  }

  private wheelGesture(ctx: Context, hd: WheelHandle): MapGesture {
    const id = ctx.order.decision.id;
    const before = ctx.draft;
    const words = this.host.words();
    let steps: DraftStep[] | null = null;
    return {
      move: (at) => {
        const step = wheelStep(hd, at);
        steps = step ? [...before, step] : null;
        this.host.preview(id, steps ?? before);
        if (!step) return this.host.readout("Drag the corner round to wheel.", "wheel");
        const said = describeDrag(step, null, ctx.order.allowance, (n) => words.unit(n));
        this.host.readout(numbered(said.text, before.length), "wheel");
      },
      end: () => this.finish(id, steps),
      cancel: () => this.finish(id, null),
    };
  }

  private finish(decisionId: string, steps: DraftStep[] | null): void {
    this.host.preview(decisionId, null);
    this.host.readout(null);
    if (steps) this.host.commit(decisionId, steps);
  }

  // The unit, the order the map may write for it, its draft and where the
  // draft's preview ends (null when the preview stops at a step it cannot draw).
  private context(unitId: string): Context | null {
    const view = this.host.view();
    const unit = view?.units.find((u) => u.id === unitId);
    if (!unit) return null;
    const order = movableOrder(this.host.play(), this.host.seat(), unitId, this.host.words(), this.host.activeDecision());
    if (!order) return null;
    const draft = this.host.play().drafts[order.decision.id] ?? [];
    const pv = previewPath(unit, draft.map((st) => ({ ...st, to: { x: st.toX, y: st.toY } })));
    const end = pv.stoppedAt ? null : (pv.steps[pv.steps.length - 1]?.placement ?? pv.start);
    return { unit, order, draft, end };
  }
}

interface Context {
  unit: UnitView;
  order: MovableOrder;
  draft: DraftStep[];
  end: Placement | null;
}

function numbered(text: string, before: number): string {
  return before > 0 ? `Step ${before + 1}: ${text}` : text;
}
