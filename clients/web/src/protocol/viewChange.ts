// A view told as a change (galloper/v1/game.proto, ViewChange): the server
// sends a seat's view after a step as what changed since the last view this
// connection was sent. The client keeps the whole view and applies each
// change to it, exactly as the server's codec::apply_change does.
import type { GameView, ViewChange } from "@gen/galloper/v1/game_pb";

export type Applied = { ok: true; view: GameView } | { ok: false; reason: string };

// `last` (a whole view) with `view` (the header whole, the new and changed
// units, the terrain if it changed) and `change` applied. Neither input is
// changed. When the change does not fit `last`, a reason instead.
export function applyViewChange(last: GameView, view: GameView, change: ViewChange): Applied {
  if (change.unitIndex.length !== view.units.length) {
    return { ok: false, reason: `the view change places ${change.unitIndex.length} units but holds ${view.units.length}` };
  }
  const present = new Set(last.units.map((u) => u.id));
  const dropped = new Set(view.units.map((u) => u.id));
  for (const id of change.unitsGone) {
    if (!present.has(id)) return { ok: false, reason: `the view change drops unit "${id}", which the last view does not hold` };
    dropped.add(id);
  }
  const kept = last.units.filter((u) => !dropped.has(u.id));
  const total = kept.length + view.units.length;
  const units: GameView["units"] = [];
  let fromKept = 0;
  let fromChange = 0;
  for (let place = 0; place < total; ++place) {
    if (fromChange < view.units.length && change.unitIndex[fromChange] === place) {
      units.push(view.units[fromChange++]);
    } else if (fromKept < kept.length) {
      units.push(kept[fromKept++]);
    } else {
      break;
    }
  }
  if (fromChange !== view.units.length) {
    return {
      ok: false,
      reason:
        `the view change puts unit "${view.units[fromChange].id}" at place ${change.unitIndex[fromChange]}, ` +
        `out of order or beyond the view's ${total} units`,
    };
  }
  return { ok: true, view: { ...view, terrain: change.terrainChanged ? view.terrain : last.terrain, units } };
}
