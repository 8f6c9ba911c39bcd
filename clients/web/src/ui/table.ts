// The table page: joins a seat, then shows the server's GameView for it (map,
// key, unit details) and follows the views the server pushes. After a dropped
// connection it re-joins with the resume token.
import type { GameView, UnitView } from "@gen/galloper/v1/game_pb";
import { Knowledge } from "@gen/galloper/v1/game_pb";
import type { GalloperClient } from "../protocol/client";
import { GalloperError } from "../protocol/errors";
import { ErrorCode } from "@gen/galloper/v1/protocol_pb";
import { renderLegend } from "../map/legend";
import { sideColour, KNOWLEDGE_CLASS } from "../map/style";
import { TableMap } from "../map/tableMap";
import { clear, h } from "./dom";
import { describeError, errorBox, type Shell } from "./shell";
import { renderUnitPanel } from "./unitPanel";

const resumeKey = (gameId: string) => `galloper.resume.${gameId}`;

export function mountTable(shell: Shell, client: GalloperClient, gameId: string, inviteToken: string): () => void {
  shell.setInfo([{ value: "Joining…", field: "page" }]);
  const errors = errorBox();
  const details = h("div", { class: "details", "data-testid": "unit-details" }, h("p", { class: "muted" }, "Select a unit to see its state."));
  const legendSlot = h("div", { class: "legend-slot" });
  const unitList = h("ul", { class: "unit-list", "aria-label": "Your units" });
  const panel = h(
    "aside",
    { class: "side-panel", "aria-label": "Details" },
    details,
    h("details", { class: "unit-list-box" }, h("summary", {}, "Units in view"), unitList),
    legendSlot,
  );
  let view: GameView | null = null;
  let seat = "";
  let alive = true;

  const map = new TableMap({
    onSelect: (id) => {
      const u = id && view ? view.units.find((x) => x.id === id) : undefined;
      showDetails(u);
    },
  });

  const page = h("div", { class: "table-page" }, errors.el, h("div", { class: "table-layout" }, map.root, panel));
  clear(shell.main);
  shell.main.append(page);

  function showDetails(u: UnitView | undefined): void {
    clear(details);
    if (u && view) details.append(renderUnitPanel(u, view));
    else details.append(h("p", { class: "muted" }, "Select a unit to see its state."));
  }

  function render(v: GameView): void {
    view = v;
    if (v.seat) seat = v.seat;
    const turn = v.turnLimit ? `${v.turn} / ${v.turnLimit}` : String(v.turn);
    shell.setInfo([
      { value: v.title || v.scenario || v.gameId, field: "title" },
      { label: "Seat", value: seat || "—", field: "seat" },
      ...(v.side ? [{ label: "Side", value: v.sides.find((x) => x.id === v.side)?.name || v.side, field: "side" }] : []),
      { label: "Turn", value: turn, field: "turn" },
      { label: "Phase", value: v.phase || "—", field: "phase" },
    ]);
    document.title = `${v.title || "Game"} — ${seat} — Galloper`;
    map.update(v);
    clear(legendSlot);
    legendSlot.append(renderLegend(v));
    renderUnitList(v);
    const sel = map.selected;
    showDetails(sel ? v.units.find((u) => u.id === sel) : undefined);
  }

  function renderUnitList(v: GameView): void {
    clear(unitList);
    const order = [Knowledge.OWN, Knowledge.UMPIRE, Knowledge.FRIENDLY, Knowledge.SEEN, Knowledge.LAST_SEEN, Knowledge.UNSPECIFIED];
    const units = [...v.units].sort((a, b) => order.indexOf(a.knowledge) - order.indexOf(b.knowledge) || a.name.localeCompare(b.name));
    for (const u of units) {
      const b = h(
        "button",
        { type: "button", class: `unit-item ${KNOWLEDGE_CLASS[u.knowledge]}`, "data-unit-id": u.id },
        h("span", { class: "side-chip", style: `background:${sideColour(u.side, v.sides)}` }),
        u.name || u.id,
      );
      b.addEventListener("click", () => map.select(u.id));
      unitList.append(h("li", {}, b));
    }
  }

  async function join(token: string): Promise<void> {
    const joined = await client.joinGame(gameId, token);
    if (!alive) return;
    seat = joined.seat;
    if (joined.resumeToken) sessionStorage.setItem(resumeKey(gameId), joined.resumeToken);
    errors.clear();
    if (joined.view) render(joined.view);
  }

  const offView = client.onView((v) => {
    if (alive && (!v.gameId || v.gameId === gameId)) render(v);
  });
  const offReconnect = client.onReconnected(() => {
    const resume = sessionStorage.getItem(resumeKey(gameId));
    join(resume ?? inviteToken).catch((e) => alive && errors.show(`Could not rejoin: ${describeError(e)}`));
  });

  join(inviteToken)
    .catch((e: unknown) => {
      // A reloaded page may hold an invite the server no longer takes; the
      // resume token from this tab's earlier join still identifies the seat.
      const resume = sessionStorage.getItem(resumeKey(gameId));
      if (e instanceof GalloperError && e.code === ErrorCode.BAD_TOKEN && resume && resume !== inviteToken) {
        return join(resume);
      }
      throw e;
    })
    .catch((e) => {
    if (!alive) return;
    shell.setInfo([{ value: "Could not join", field: "page" }]);
    errors.show(describeError(e));
  });

  return () => {
    alive = false;
    offView();
    offReconnect();
    map.destroy();
  };
}
