// The table page: joins a seat, then shows the server's GameView for it (map,
// key, unit details), what the seat owes (orders panel), who still owes
// answers (seats bar) and what happened (event log), following everything the
// server pushes. After a dropped connection it re-joins with the resume token.
import { create, fromJsonString } from "@bufbuild/protobuf";
import { AnswerSchema, type Decision, type GameView, type UnitView } from "@gen/galloper/v1/game_pb";
import { Knowledge } from "@gen/galloper/v1/game_pb";
import type { GalloperClient } from "../protocol/client";
import { GalloperError } from "../protocol/errors";
import { ErrorCode, GameSettingsSchema, type Envelope, type GameSettings, type Joined, type SeatInfo } from "@gen/galloper/v1/protocol_pb";
import { initialLife, lifeReducer, type LifeAction, type LifeState } from "../game/life";
import { renderLegend } from "../map/legend";
import { ghostColour } from "../map/drawPreview";
import { placementOf, previewPath } from "../map/preview";
import { sideColour, KNOWLEDGE_CLASS } from "../map/style";
import { TableMap } from "../map/tableMap";
import {
  decisionNamedIn,
  initialPlayState,
  namedIds,
  playReducer,
  type DraftStep,
  type PlayAction,
  type PlayState,
} from "../play/state";
import { ChatPanel } from "./chatPanel";
import { clear, h } from "./dom";
import { EventLog } from "./eventLog";
import { GameInfo } from "./gameInfo";
import { settingsKey } from "./lobby";
import { NoticeBanner } from "./noticeBanner";
import { RevealScreen } from "./revealScreen";
import { UmpireConsole } from "./umpireConsole";
import { OrdersPanel, editorDatalists } from "./ordersPanel";
import { MoveOnMap } from "./moveOnMap";
import { Vocabulary } from "../game/ruleset";
import { seatName, seatsOfGame } from "../game/seats";
import { owedSummary } from "../play/owed";
import { OweBar } from "./oweBar";
import { SeatsBar } from "./seatsBar";
import { describeError, errorBox, type Shell } from "./shell";
import { renderUnitPanel } from "./unitPanel";

// What the page received, for tests and for debugging in the console: the
// last GameView and the play state (this seat's own, nothing more).
export interface GalloperDebug {
  seat: string;
  lastView: GameView | null;
  play: PlayState;
  namedIds: string[];
  life: LifeState;
  // The page's protocol client, for the console (and the browser tests that
  // check the server refuses what the UI would not send).
  client: GalloperClient;
  gameId: string;
}
declare global {
  interface Window {
    galloper?: GalloperDebug;
  }
}

const resumeKey = (gameId: string) => `galloper.resume.${gameId}`;

export function mountTable(shell: Shell, client: GalloperClient, gameId: string, inviteToken: string): () => void {
  shell.setInfo([{ value: "Joining…", field: "page" }]);
  const errors = errorBox();
  const details = h("div", { class: "details", "data-testid": "unit-details" }, h("p", { class: "muted" }, "Select a unit to see its state."));
  const legendSlot = h("div", { class: "legend-slot" });
  const unitList = h("ul", { class: "unit-list", "aria-label": "Your units" });
  let view: GameView | null = null;
  let seat = "";
  let alive = true;
  let play: PlayState = initialPlayState(gameId);
  let life: LifeState = initialLife(gameId);
  const knownSeats = new Set<string>();
  // The decision the player last worked on: its subject's order is previewed.
  let activeDecision: string | null = null;
  // The steps a gesture on the map is writing for a decision, previewed in
  // place of its draft until the pointer is released.
  let gestureDraft: { decisionId: string; steps: DraftStep[] } | null = null;

  // The ruleset's words, as the server sent them on joining.
  let words = new Vocabulary();
  // The game's seats with their names (the scenario's, as the server lists
  // it), for the umpire's page, which shows other seats' decisions.
  let seatInfos: SeatInfo[] = [];
  const orders = new OrdersPanel({
    vocabulary: () => words,
    chooseOption: (d, option) => submit(d, create(AnswerSchema, { decisionId: d.id, option })),
    sendSteps: (d, steps) => submit(d, create(AnswerSchema, { decisionId: d.id, steps: steps.map(toStep) })),
    editDraft: (id, steps) => editDraft(id, steps),
    lock: () => lock(),
    selectSubject: (id) => selectOnMap(id),
    focusDecision: (id) => {
      if (activeDecision === id) return;
      activeDecision = id;
      updateOverlay();
    },
    escape: () => map.select(null),
    askOdds: (proposal) => client.odds(gameId, proposal),
    seatName: (id) => seatName(id, seatInfos, view),
  });
  const oweBar = new OweBar((id) => orders.reveal(id));
  const seatsBar = new SeatsBar();
  const eventLog = new EventLog((id) => selectOnMap(id));
  const datalists = h("div", { hidden: true });
  const reveal = new RevealScreen();
  const banner = new NoticeBanner(() => reveal.show());
  const chat = new ChatPanel({
    send: async (channel, text, toSeat) => {
      await client.sendChat(gameId, channel, text, toSeat);
    },
  });
  const umpire = new UmpireConsole({
    act: (r) => client.umpireAction(gameId, r.reason, r.action),
    audit: () => client.listAudit(gameId),
  });
  const info = new GameInfo();
  const umpireBox = h("details", { class: "umpire-box", open: true, hidden: true }, h("summary", {}, "Umpire and pauses"), umpire.root);

  const detailsBox = h(
    "details",
    { class: "unit-details-box", open: true },
    h("summary", {}, "Selected unit"),
    details,
  );
  // Two regions that scroll apart: the orders (never pushed out of view by
  // what is below) and the rest (pauses, chat, the unit, settings, the key).
  const panel = h(
    "aside",
    { class: "side-panel", "aria-label": "Orders and details" },
    h("div", { class: "side-orders", "data-testid": "side-orders" }, orders.root),
    h(
      "div",
      { class: "side-more", "data-testid": "side-more", role: "region", "aria-label": "Chat, unit details and key", tabindex: -1 },
      umpireBox,
      h("details", { class: "chat-box", open: true }, h("summary", {}, "Chat"), chat.root),
      detailsBox,
      h("details", { class: "game-info-box" }, h("summary", {}, "Game settings and dice"), info.root),
      h("details", { class: "unit-list-box" }, h("summary", {}, "Units in view"), unitList),
      legendSlot,
      datalists,
    ),
  );

  // Moves and wheels given by dragging on the map: they write the same draft
  // the orders panel's form does.
  const moves: MoveOnMap = new MoveOnMap({
    view: () => view,
    play: () => play,
    seat: () => seat,
    words: () => words,
    activeDecision: () => activeDecision,
    selected: () => map.selected,
    select: (id) => {
      if (map.selected !== id) map.select(id);
    },
    preview: (decisionId, steps) => {
      gestureDraft = steps ? { decisionId, steps } : null;
      updateOverlay();
    },
    commit: (decisionId, steps) => {
      activeDecision = decisionId;
      editDraft(decisionId, steps);
      orders.showOrder(decisionId);
    },
    readout: (text, tool, over) => map.setReadout(text, tool, over),
  });

  const map: TableMap = new TableMap({
    onPress: (at, target, unitsPerPx) => moves.press(at, target, unitsPerPx),
    onSelect: (id) => {
      const u = id && view ? view.units.find((x) => x.id === id) : undefined;
      showDetails(u);
      orders.highlightSubject(id);
      if (id) umpire.pickUnit(id); // the umpire's edit changes the unit picked on the map
      updateOverlay();
    },
    turnMemory: storage(),
  });

  // Keyboard users reach the orders without tabbing through every unit.
  const skip = h("a", { href: "#", class: "skip-link", "data-testid": "skip-to-orders" }, "Skip to orders");
  skip.addEventListener("click", (e) => {
    e.preventDefault();
    orders.focus();
  });
  const page = h(
    "div",
    { class: "table-page" },
    skip,
    errors.el,
    banner.root,
    seatsBar.root,
    oweBar.root,
    h("div", { class: "table-layout" }, map.root, panel, eventLog.root),
  );
  clear(shell.main);
  shell.main.append(page, reveal.root);
  renderPlay();
  renderLife();

  function showDetails(u: UnitView | undefined): void {
    clear(details);
    if (u && view) details.append(renderUnitPanel(u, view, words));
    else details.append(h("p", { class: "muted" }, "Select a unit to see its state."));
  }

  function render(v: GameView): void {
    view = v;
    if (v.seat) seat = v.seat;
    dispatchLife({ type: "view", view: v });
    if (v.step) dispatch({ type: "viewStep", step: v.step });
    setSeat(seat);
    renderHeader();
    document.title = `${v.title || "Game"} — ${seat} — Galloper`;
    map.update(v);
    clear(legendSlot);
    legendSlot.append(renderLegend(v, words));
    renderUnitList(v);
    datalists.replaceChildren(editorDatalists(v, words));
    const sel = map.selected;
    showDetails(sel ? v.units.find((u) => u.id === sel) : undefined);
    renderPlay();
  }

  // Turn and phase from the GameView, the step from the decisions (a
  // spectator owes none and is sent no SeatStatus: the view's step).
  function renderHeader(): void {
    const v = view;
    if (!v) return;
    const turn = v.turnLimit ? `${v.turn} / ${v.turnLimit}` : String(v.turn);
    const step = play.step ?? play.seatStatusStep ?? v.step;
    shell.setInfo([
      { value: v.title || v.scenario || v.gameId, field: "title" },
      { label: "Seat", value: seat || "—", field: "seat" },
      ...(v.side ? [{ label: "Side", value: v.sides.find((x) => x.id === v.side)?.name || v.side, field: "side" }] : []),
      { label: "Turn", value: turn, field: "turn" },
      { label: "Phase", value: v.phase || "—", field: "phase" },
      { label: "Step", value: step === null ? "—" : String(step), field: "step" },
    ]);
  }

  // ---- Play ----

  function dispatch(action: PlayAction): void {
    const before = play;
    play = playReducer(play, action);
    if (play !== before) renderPlay();
  }

  // The step open now: the orders', else the seats bar's, else the view's.
  function openStep(): bigint | null {
    return play.step ?? play.seatStatusStep ?? (view ? view.step : null);
  }

  function renderPlay(): void {
    orders.render(play, view, seat === "spectator", seat);
    oweBar.render(owedSummary(play, seat, view, (k) => words.decisionLabel(k)), life.deadlineUnix, life.paused, seat === "spectator");
    banner.render(life, openStep());
    seatsBar.render(play, seat, view);
    eventLog.render(play.events, view);
    renderHeader();
    updateOverlay();
    for (const s of [...play.owing, ...play.bots]) knownSeats.add(s);
    chat.setKnownSeats([...knownSeats].sort());
    umpire.setSeats([...knownSeats].sort(), play.bots);
    exposeDebug();
  }

  function exposeDebug(): void {
    window.galloper = { seat, lastView: view, play, namedIds: [...namedIds(play)], life, client, gameId };
  }

  // ---- Notices, chat, the end ----

  function dispatchLife(action: LifeAction): void {
    const before = life;
    life = lifeReducer(life, action);
    if (life !== before) renderLife();
    if (life.behind && !life.syncing) catchUp();
  }

  // The server numbered events this page never received (or ended the game
  // without sending this page its last view): joining again with the last
  // sequence the page has sends what it lacks, and the view whole.
  let catchingUp = false;
  function catchUp(): void {
    if (catchingUp || !alive) return;
    catchingUp = true;
    rejoin()
      .catch((e) => alive && errors.show(`Could not catch up: ${describeError(e)}`))
      .finally(() => (catchingUp = false));
  }

  function renderLife(): void {
    banner.render(life, openStep());
    oweBar.render(owedSummary(play, seat, view, (k) => words.decisionLabel(k)), life.deadlineUnix, life.paused, seat === "spectator");
    info.renderLife(life);
    chat.render(life.chat, seat);
    for (const m of life.chat) knownSeats.add(m.fromSeat);
    reveal.render(life, gameId);
    exposeDebug();
  }

  function setSeat(s: string): void {
    if (!s) return;
    chat.setSeat(s);
    umpire.setSeat(s);
    umpireBox.hidden = s === "spectator" || s === "";
    umpireBox.querySelector("summary")!.textContent = s === "umpire" ? "Umpire console" : "Pause";
  }

  // The settings in force: as the server sends them where it does, else as
  // this browser created the game with them.
  function showSettings(joined: Joined): void {
    const sent: GameSettings | undefined = joined.settings;
    if (sent) {
      info.renderSettings(sent, "");
      return;
    }
    try {
      const stored = localStorage.getItem(settingsKey(gameId));
      if (stored) {
        info.renderSettings(fromJsonString(GameSettingsSchema, stored), "As this game was created from this browser (the server does not send a seat its game's settings yet).");
        return;
      }
    } catch {
      /* unreadable: fall through */
    }
    info.renderSettings(undefined, "");
  }

  // A new draft for a decision, typed or dragged: its subject is selected
  // on the map, with the preview.
  function editDraft(id: string, steps: DraftStep[]): void {
    dispatch({ type: "editDraft", decisionId: id, steps });
    const subject = play.decisions.find((d) => d.id === id)?.subjects[0];
    if (subject && map.selected !== subject) selectOnMap(subject);
  }

  function selectOnMap(id: string): void {
    if (view?.units.some((u) => u.id === id)) {
      map.select(id);
      map.reveal(id);
    }
  }

  // Rings and front arc for the selected unit; the ghost of the order being
  // edited for it (the active decision's, else any order about it).
  function updateOverlay(): void {
    const id = map.selected;
    const u = id && view ? view.units.find((x) => x.id === id) : undefined;
    if (!u) {
      map.setOverlay(null, null);
      map.setHandles(null);
      return;
    }
    const dragged = gestureDraft && play.decisions.find((d) => d.id === gestureDraft!.decisionId)?.subjects[0] === u.id ? gestureDraft : null;
    const about = (d: Decision) => d.subjects[0] === u.id && (play.drafts[d.id]?.length ?? 0) > 0;
    const active = play.decisions.find((d) => d.id === activeDecision);
    const d = active && about(active) ? active : play.decisions.find(about);
    const steps = dragged ? dragged.steps : d ? play.drafts[d.id]! : [];
    const ghost = steps.length ? previewPath(u, steps.map((st) => ({ ...st, to: { x: st.toX, y: st.toY } }))) : null;
    map.setOverlay(placementOf(u), ghost, view ? ghostColour(u.side, view.sides) : "");
    // The wheel handles stay where the draft ends while a gesture drags.
    map.setHandles(moves.handlesFor(u.id), u.id);
  }

  async function submit(d: Decision, answer: ReturnType<typeof create<typeof AnswerSchema>>): Promise<void> {
    const step = play.step;
    if (step === null) return;
    dispatch({ type: "submitting", decisionId: d.id });
    try {
      await client.submitAnswer(gameId, step, answer);
      if (alive) dispatch({ type: "answerAccepted", decisionId: d.id, answer });
    } catch (e) {
      if (!alive) return;
      dispatch({ type: "answerRefused", decisionId: d.id, reason: refusalText(e) });
    }
  }

  async function lock(): Promise<void> {
    const step = play.step;
    if (step === null) return;
    dispatch({ type: "locking" });
    const reopens = play.reopens;
    try {
      const r = await client.lockAnswers(gameId, step);
      if (alive) dispatch({ type: "answersLocked", step: r.step, defaulted: [...r.defaulted], reopens });
    } catch (e) {
      if (!alive) return;
      const reason = refusalText(e);
      const named = e instanceof GalloperError ? decisionNamedIn(e.message, play.decisions) : undefined;
      dispatch({ type: "lockRefused", reason, ...(named ? { decisionId: named } : {}) });
    }
  }

  function onPush(env: Envelope): void {
    const b = env.body;
    switch (b.case) {
      case "decisions":
        if (!b.value.gameId || b.value.gameId === gameId) dispatch({ type: "decisions", owed: b.value });
        break;
      case "seatStatus":
        dispatch({ type: "seatStatus", status: b.value });
        break;
      case "stepResolved":
        if (!b.value.gameId || b.value.gameId === gameId) {
          dispatch({ type: "stepResolved", resolved: b.value });
          dispatchLife({ type: "events", events: b.value.events });
        }
        break;
      case "eventsSince":
        if (!b.value.gameId || b.value.gameId === gameId) {
          dispatch({ type: "eventsSince", since: b.value });
          dispatchLife({ type: "eventsSince", since: b.value });
        }
        break;
      case "notice":
        if (!b.value.gameId || b.value.gameId === gameId) {
          dispatchLife({ type: "notice", notice: b.value, at: Date.now(), openStep: openStep() });
          if (b.value.kind === "rewound") dispatch({ type: "rewound", step: b.value.step });
          if (b.value.kind === "reopened") dispatch({ type: "reopened", step: b.value.step, text: b.value.text });
          // The end reveals the whole table: a page whose last view is not
          // the end's (a spectator watching late, any page when the umpire
          // ends the game) joins again for it and for what it was not told.
          if (b.value.kind === "ended" && view && !view.ended) catchUp();
          umpire.refreshAudit();
        }
        break;
      case "chat":
        if (!b.value.gameId || b.value.gameId === gameId) dispatchLife({ type: "chat", message: b.value });
        break;
      case "error": {
        const code = ErrorCode[b.value.code]?.replace(/^ERROR_CODE_/, "") ?? String(b.value.code);
        dispatch({ type: "errorPush", code, message: b.value.message });
        break;
      }
      default:
        break;
    }
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

  // Joins (or re-joins) the seat, asking for the events and chat after the
  // last ones this page has: the server answers Joined, then DecisionsOwed,
  // SeatStatus and EventsSince in pages (merged by sequence: nothing twice).
  async function join(token: string): Promise<void> {
    dispatchLife({ type: "joining" });
    const joined = await client.joinGame(gameId, token, life.lastSequence, life.lastChatSequence);
    if (!alive) return;
    seat = joined.seat;
    if (joined.resumeToken) sessionStorage.setItem(resumeKey(gameId), joined.resumeToken);
    errors.clear();
    words = new Vocabulary(joined.ruleset);
    map.setVocabulary(words);
    umpire.setEditKinds(words.editKinds());
    showSettings(joined);
    if (seat === "umpire" && seatInfos.length === 0) loadSeatNames(joined.view ?? null);
    if (joined.view) render(joined.view);
    else setSeat(seat);
  }

  // The umpire's page names the seats whose decisions it shows: the game's
  // scenario as the server lists it. Without it (an uploaded scenario, a
  // refusal) the names come from the view's sides.
  function loadSeatNames(v: GameView | null): void {
    client
      .listScenarios()
      .then((list) => {
        if (!alive) return;
        seatInfos = seatsOfGame(list.scenarios, v ?? view);
        if (seatInfos.length) {
          orders.relabel();
          renderPlay();
        }
      })
      .catch(() => {
        /* the sides' names stand in */
      });
  }

  // A resume token the server no longer knows (it restarted) gives way to
  // the invite.
  async function rejoin(): Promise<void> {
    const resume = sessionStorage.getItem(resumeKey(gameId));
    if (resume && resume !== inviteToken) {
      try {
        await join(resume);
        return;
      } catch (e) {
        if (!(e instanceof GalloperError && e.code === ErrorCode.BAD_TOKEN)) throw e;
      }
    }
    await join(inviteToken);
  }

  const offPush = client.onPush((env) => {
    if (alive) onPush(env);
  });
  const offView = client.onView((v) => {
    if (alive && (!v.gameId || v.gameId === gameId)) render(v);
  });
  const offReconnect = client.onReconnected(() => {
    rejoin().catch((e) => alive && errors.show(`Could not rejoin: ${describeError(e)}`));
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
    offPush();
    offView();
    if (window.galloper?.play.gameId === gameId) delete window.galloper;
    offReconnect();
    banner.destroy();
    oweBar.destroy();
    map.destroy();
  };
}

// This browser's localStorage, where it may be used.
function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function toStep(d: DraftStep) {
  return {
    action: d.action,
    distance: d.distance,
    angleDeg: d.angleDeg,
    pivot: d.pivot,
    formation: d.formation,
    target: d.target,
    ...(d.toX || d.toY ? { to: { x: d.toX, y: d.toY } } : {}),
  };
}

// The server's reason as a player reads it: an illegal answer's message, or
// a "try again later" (the game is paused), on its own; anything else with
// its code.
function refusalText(e: unknown): string {
  if (e instanceof GalloperError) {
    return e.code === ErrorCode.ILLEGAL_ANSWER || e.code === ErrorCode.UNAVAILABLE ? e.message : e.describe();
  }
  return describeError(e);
}
