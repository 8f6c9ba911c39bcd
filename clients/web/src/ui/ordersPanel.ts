// The orders panel: every decision this seat owes at the current step, as the
// server states it (prompt, subjects, options, limits), with a way to answer
// each one and to lock the seat's answers. It shows what the server accepted
// or refused, in the server's words; it never judges an answer itself.
// The umpire is sent every seat's decisions: those of other seats are shown
// read-only under the seat's name (the server refuses the umpire's answers
// to them); only the umpire's own have answer controls.
import type { Decision, GameView, Limit } from "@gen/galloper/v1/game_pb";
import type { OddsReply } from "@gen/galloper/v1/protocol_pb";
import { hasOdds, oddsLines, oddsProposal, proposalKey, type OddsProposal } from "../play/odds";
import {
  blockingLock,
  emptyDraft,
  hasOptions,
  seatPhase,
  refusedStanding,
  unanswered,
  withAction,
  type Answered,
  type DraftStep,
  type PlayState,
} from "../play/state";
import type { Vocabulary } from "../game/ruleset";
import { isOwnDecision, ownState } from "../play/owed";
import { clear, h } from "./dom";

export interface OrdersPanelCallbacks {
  chooseOption(decision: Decision, optionId: string): void;
  sendSteps(decision: Decision, steps: DraftStep[]): void;
  editDraft(decisionId: string, steps: DraftStep[]): void;
  lock(): void;
  selectSubject(unitId: string): void;
  // The decision the player is working on (its subject's order is previewed).
  focusDecision(decisionId: string): void;
  // Escape with nothing to close.
  escape(): void;
  // The words of the game's ruleset (Joined.ruleset): its actions, what each
  // step reads, its formations and its unit.
  vocabulary(): Vocabulary;
  // The exact odds of a proposed charge or shot (the server's answer; a
  // refusal rejects with its reason).
  askOdds(proposal: OddsProposal): Promise<OddsReply>;
  // A seat as a player reads it (the seats list's name, never its id).
  seatName(seat: string): string;
}

let uid = 0;

export class OrdersPanel {
  readonly root: HTMLElement;
  private readonly headline: HTMLElement;
  private readonly notice: HTMLElement;
  private readonly list: HTMLElement;
  private readonly lockBar: HTMLElement;
  private readonly lockButton: HTMLButtonElement;
  private readonly lockStatus: HTMLElement;
  private readonly lockError: HTMLElement;
  private readonly cards = new Map<string, DecisionCard>();
  private cardsKey = "";
  private state: PlayState | null = null;
  private view: GameView | null = null;
  private seat = "";
  // The refused orders the player was warned of; a second press locks anyway.
  private warnedOf = "";

  constructor(private readonly cb: OrdersPanelCallbacks) {
    this.headline = h("p", { class: "orders-headline", "data-testid": "orders-headline", role: "status" }, "Waiting for the server…");
    this.notice = h("div", { class: "error-box", role: "alert", hidden: true, "data-testid": "orders-notice" });
    this.list = h("div", { class: "decision-list", "data-testid": "decision-list" });
    this.lockButton = h("button", { type: "button", class: "primary", "data-testid": "lock-answers" }, "Lock answers");
    this.lockButton.addEventListener("click", () => this.pressLock());
    this.lockStatus = h("p", { class: "lock-status muted", "data-testid": "lock-status" });
    this.lockError = h("p", { class: "refusal", role: "alert", hidden: true, "data-testid": "lock-error" });
    this.lockBar = h("div", { class: "lock-bar" }, this.lockButton, this.lockStatus, this.lockError);
    this.root = h(
      "section",
      { class: "orders-panel", "aria-labelledby": "orders-title", "data-testid": "orders-panel" },
      h("h2", { id: "orders-title", tabindex: -1 }, "Orders"),
      this.headline,
      this.notice,
      this.list,
      this.lockBar,
    );
    this.root.addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      const open = (e.target as Element | null)?.closest?.("details[open]") as HTMLDetailsElement | null;
      if (open) {
        open.open = false;
        open.querySelector<HTMLElement>("summary")?.focus();
      } else {
        this.cb.escape();
      }
      e.preventDefault();
    });
  }

  // `watching`: the page is a spectator's, which owes nothing and is sent no
  // decisions (nor any step to wait for).
  // `seat`: the page's own; decisions addressed to another seat are read-only.
  render(all: PlayState, view: GameView | null, watching = false, seat = this.seat): void {
    this.state = all;
    this.view = view;
    this.seat = seat;
    // What this seat owes: its own decisions only (the umpire's page holds every seat's).
    const state = ownState(all, seat);
    if (watching) {
      this.root.dataset.state = "watching";
      this.root.dataset.step = "";
      this.headline.textContent = "Spectators watch: there is nothing to answer.";
      this.notice.hidden = true;
      this.cardsKey = "";
      this.cards.clear();
      clear(this.list);
      this.lockBar.hidden = true;
      return;
    }
    const phase = seatPhase(state);
    this.root.dataset.state = phase;
    this.root.dataset.step = state.step === null ? "" : String(state.step);

    const left = unanswered(state).length;
    const n = state.decisions.length;
    const others = all.decisions.length - n;
    this.headline.textContent =
      phase === "waiting"
        ? "Waiting for the server…"
        : phase === "idle"
          ? others
            ? `Nothing to decide at step ${state.step}. The seats owe ${others} decision${others === 1 ? "" : "s"}, shown read-only.`
            : `Nothing to decide at step ${state.step}.`
          : phase === "locked"
            ? `Step ${state.step}: answers locked. Waiting for the other seats.`
            : `Step ${state.step}: ${n} decision${n === 1 ? "" : "s"}, ${left} not answered yet.`;

    this.notice.hidden = !state.notice;
    // The server's words: a reopened step says which of this seat's orders collided.
    this.notice.textContent = state.notice;

    // New step or new decisions: new cards. Otherwise update them in place so
    // a half-typed order keeps its focus and text.
    const key = `${seat}|${all.step}|${all.decisions.map((d) => d.id).join(",")}`;
    if (key !== this.cardsKey) {
      this.cardsKey = key;
      this.cards.clear();
      clear(this.list);
      // In the server's order; another seat's decisions under its name.
      let heading = "";
      for (const d of all.decisions) {
        const own = isOwnDecision(d, seat);
        if (!own && d.seat !== heading) {
          this.list.append(h("h3", { class: "seat-heading", "data-seat": d.seat }, `${this.cb.seatName(d.seat)} — read-only`));
        }
        heading = own ? "" : d.seat;
        const card = new DecisionCard(d, this.cb, own ? null : this.cb.seatName(d.seat));
        this.cards.set(d.id, card);
        this.list.append(card.root);
      }
    }
    for (const d of all.decisions) this.cards.get(d.id)?.update(state, view);

    this.lockBar.hidden = phase !== "answering" && phase !== "locked";
    this.lockButton.disabled = phase !== "answering" || state.locking || Object.keys(state.sending).length > 0;
    const refused = refusedStanding(state);
    if (this.warnedOf !== refusedKey(state, refused)) this.warnedOf = "";
    const warning = phase === "answering" && this.warnedOf !== "";
    this.lockButton.textContent = phase === "locked" ? "Locked" : state.locking ? "Locking…" : warning ? "Lock anyway" : "Lock answers";
    this.lockButton.setAttribute("aria-pressed", phase === "locked" ? "true" : "false");
    const blocking = blockingLock(state);
    const defaults = unanswered(state).filter((d) => d.defaultOption);
    this.lockStatus.dataset.warning = warning ? "refused" : "";
    this.lockStatus.textContent = warning
      ? `The server refused your last order for ${refused.map((d) => labelOfDecision(d)).join(", ")}: ` +
        "locking keeps the answer it held before (or the default). Press “Lock anyway” to lock, or change the order."
      : phase === "locked"
        ? state.defaulted.length
          ? `Locked. Took the default for ${state.defaulted.length} decision${state.defaulted.length === 1 ? "" : "s"}.`
          : "Locked."
        : phase === "answering"
          ? [
              defaults.length ? `Locking now takes the default for ${defaults.length} unanswered decision${defaults.length === 1 ? "" : "s"}.` : "",
              blocking.length ? `${blocking.length} decision${blocking.length === 1 ? " has" : "s have"} no default and must be answered.` : "",
            ]
              .filter(Boolean)
              .join(" ")
          : "";
    this.lockError.hidden = !state.lockError;
    this.lockError.textContent = state.lockError;
  }

  // Locking with an order the server refused keeps the answer held before:
  // the first press says so, the second locks.
  private pressLock(): void {
    const own = this.state ? ownState(this.state, this.seat) : null;
    const refused = own ? refusedStanding(own) : [];
    const key = refusedKey(own, refused);
    if (refused.length > 0 && this.warnedOf !== key) {
      this.warnedOf = key;
      if (this.state) this.render(this.state, this.view);
      return;
    }
    this.warnedOf = "";
    this.cb.lock();
  }

  // The seats' names changed (the seats list came): the cards are made again.
  relabel(): void {
    this.cardsKey = "";
  }

  // Moves the keyboard to the panel: the first open decision, else its title.
  focus(): void {
    const first = this.list.querySelector<HTMLElement>(".decision:not([data-state=locked]):not([data-readonly]) button:not([disabled]), .decision:not([data-readonly]) summary");
    (first ?? this.root.querySelector<HTMLElement>("h2"))?.focus();
  }

  // Brings a decision's card into view, its order opened, and gives it the
  // keyboard (the "owe" bar's entries lead here).
  reveal(decisionId: string): void {
    const card = this.cards.get(decisionId);
    if (!card) return;
    for (const d of card.root.querySelectorAll<HTMLDetailsElement>("details")) d.open = true;
    card.root.scrollIntoView({ block: "nearest", behavior: "smooth" });
    card.root.classList.add("revealed");
    setTimeout(() => card.root.classList.remove("revealed"), 1600);
    const target = card.root.querySelector<HTMLElement>(
      "button.option:not([disabled]), .step-editor select:not([disabled]), .step-editor input:not([disabled]), [data-testid=add-step]:not([disabled])",
    );
    (target ?? card.title).focus({ preventScroll: true });
    this.cb.focusDecision(decisionId);
  }

  // Shows a decision's order (its steps just written on the map) without
  // taking the keyboard from where it is: the card's order box opened and
  // scrolled into view.
  showOrder(decisionId: string): void {
    const card = this.cards.get(decisionId);
    if (!card) return;
    for (const d of card.root.querySelectorAll<HTMLDetailsElement>("details.order-box")) d.open = true;
    card.root.scrollIntoView({ block: "nearest" });
  }

  // Marks the cards about a unit (selected on the map).
  highlightSubject(unitId: string | null): void {
    for (const card of this.cards.values()) card.root.classList.toggle("about-selected", !!unitId && card.decision.subjects.includes(unitId));
  }

  get current(): PlayState | null {
    return this.state;
  }
}

class DecisionCard {
  readonly root: HTMLElement;
  readonly title: HTMLElement;
  private readonly status: HTMLElement;
  private readonly subjects: HTMLElement;
  private readonly optionButtons = new Map<string, HTMLButtonElement>();
  private readonly refusal: HTMLElement;
  private readonly answerNote: HTMLElement;
  private readonly editor: StepEditor | null;
  private readonly odds: OddsBox | null;

  // `readOnlyFor`: the name of the seat that owes it, when that is not this
  // page's seat (the umpire's page): shown without answer controls.
  constructor(
    readonly decision: Decision,
    private readonly cb: OrdersPanelCallbacks,
    private readonly readOnlyFor: string | null = null,
  ) {
    const d = decision;
    const readOnly = readOnlyFor !== null;
    const titleId = `decision-${++uid}`;
    this.status = h("span", { class: "decision-status", "data-testid": "decision-status" });
    this.subjects = h("div", { class: "subjects" });
    this.refusal = h("p", { class: "refusal", role: "alert", hidden: true, "data-testid": "refusal" });
    this.answerNote = h("p", { class: "answer-note muted", "data-testid": "answer-note" });

    const options = hasOptions(d)
      ? readOnly
        ? h("ul", { class: "options read-only", "aria-label": "Choices" })
        : h("div", { class: "options", role: "group", "aria-label": "Choices" })
      : null;
    for (const o of d.options) {
      if (readOnly) {
        options?.append(
          h(
            "li",
            { class: "option-read", "data-option-id": o.id },
            o.label || o.id,
            o.id === d.defaultOption ? h("span", { class: "default-mark" }, " (default)") : null,
          ),
        );
        continue;
      }
      const b = h(
        "button",
        { type: "button", class: "option", "data-option-id": o.id, "aria-pressed": "false" },
        o.label || o.id,
        o.id === d.defaultOption ? h("span", { class: "default-mark", title: "the default if you lock without choosing" }, " (default)") : null,
      );
      b.addEventListener("click", () => {
        cb.focusDecision(d.id);
        cb.chooseOption(d, o.id);
      });
      this.optionButtons.set(o.id, b);
      options?.append(b);
    }

    // Order steps: the answer for a decision without options. A decision with
    // options may take steps instead where it states limits (a leader's
    // actions: how many, how far) or is of a kind known to (move dice take an
    // 'objective' step); one with options only (go first or second, a control
    // test's modifier) is answered by its options.
    const steps = !readOnly && (!hasOptions(d) || d.limits.length > 0 || cb.vocabulary().actionsFor(d.kind) !== undefined);
    this.editor = steps ? new StepEditor(d, cb, !hasOptions(d)) : null;
    this.odds = hasOdds(d) ? new OddsBox(d, cb) : null;

    const kindWord = cb.vocabulary().decisionLabel(d.kind);
    this.title = h("h3", { id: titleId, class: "decision-prompt", tabindex: -1 }, d.prompt || d.id);
    this.root = h(
      "section",
      {
        class: `decision${readOnly ? " read-only" : ""}`,
        "data-decision-id": d.id,
        "data-kind": d.kind,
        "data-seat": d.seat,
        ...(readOnly ? { "data-readonly": "true" } : {}),
        "aria-labelledby": titleId,
      },
      h(
        "header",
        { class: "decision-head" },
        h("span", { class: "decision-kind" }, kindWord !== d.kind ? kindWord : humanize(d.kind)),
        readOnly ? h("span", { class: "decision-seat", "data-testid": "decision-seat" }, `${readOnlyFor} owes this`) : null,
        this.status,
      ),
      this.title,
      this.subjects,
      d.limits.length ? renderLimits(d.limits) : null,
      options,
      this.odds?.root,
      this.editor?.root,
      this.refusal,
      this.answerNote,
    );
    this.root.addEventListener("focusin", () => cb.focusDecision(d.id));
  }

  update(state: PlayState, view: GameView | null): void {
    const d = this.decision;
    if (this.readOnlyFor !== null) {
      // The server tells no seat what another answered: nothing to show but the question.
      this.root.dataset.state = "readonly";
      this.status.textContent = "Read-only";
      this.renderSubjects(view);
      this.odds?.update(state);
      this.answerNote.textContent = d.defaultOption ? `Its default: ${labelOf(d, d.defaultOption)}.` : "";
      return;
    }
    const answered = state.answered[d.id];
    const sending = !!state.sending[d.id];
    const refused = state.refused[d.id];
    const locked = state.locked;
    const st = locked ? "locked" : sending ? "sending" : refused ? "refused" : answered ? "answered" : "open";
    this.root.dataset.state = st;
    this.status.textContent =
      st === "locked"
        ? answered?.defaulted
          ? "Default taken"
          : "Locked"
        : st === "sending"
          ? "Sending…"
          : st === "refused"
            ? "Refused"
            : st === "answered"
              ? "Answered"
              : d.defaultOption
                ? "Open (has a default)"
                : "Open";

    this.renderSubjects(view);

    for (const [id, b] of this.optionButtons) {
      const chosen = !!answered && answered.option === id && answered.steps.length === 0;
      b.setAttribute("aria-pressed", chosen ? "true" : "false");
      b.classList.toggle("chosen", chosen);
      b.disabled = locked || sending;
    }
    this.editor?.update(state);
    this.odds?.update(state);

    this.refusal.hidden = !refused;
    this.refusal.textContent = refused ? `Refused: ${refused}` : "";
    this.answerNote.textContent = describeAnswer(d, answered, this.cb.vocabulary());
  }

  // Its subjects by name, each a link to the unit on the map.
  private renderSubjects(view: GameView | null): void {
    const d = this.decision;
    clear(this.subjects);
    if (!d.subjects.length) return;
    this.subjects.append(h("span", { class: "muted" }, d.subjects.length === 1 ? "Subject: " : "Subjects: "));
    for (const id of d.subjects) {
      const name = view?.units.find((u) => u.id === id)?.name;
      const b = h("button", { type: "button", class: "subject link", "data-subject-id": id, title: `Show ${name || id} on the map` }, name || id);
      b.addEventListener("click", () => {
        this.cb.focusDecision(d.id);
        this.cb.selectSubject(id);
      });
      this.subjects.append(b);
    }
  }
}

// The odds of a charge or shot being composed: the option chosen (or one
// picked here to weigh before choosing), asked of the server again whenever
// the proposal changes. A refusal shows the server's reason.
class OddsBox {
  readonly root: HTMLElement;
  private readonly targetSelect: HTMLSelectElement;
  private readonly diceSelect: HTMLSelectElement | null;
  private readonly body: HTMLElement;
  private key = "";
  private followed = "";
  private asked = 0;

  constructor(
    private readonly decision: Decision,
    private readonly cb: OrdersPanelCallbacks,
  ) {
    const d = decision;
    this.targetSelect = h("select", { "aria-label": "Odds for", "data-testid": "odds-target" }, h("option", { value: "" }, "—"));
    for (const o of d.options) {
      if (o.odds) this.targetSelect.append(h("option", { value: o.id }, o.label || o.id));
    }
    this.targetSelect.addEventListener("change", () => this.refresh());
    // A count of dice to assume, where the ruleset leaves one to a later decision.
    const dice = cb.vocabulary().oddsDice(d.kind);
    this.diceSelect = dice ? h("select", { "aria-label": "Dice", "data-testid": "odds-dice" }) : null;
    if (this.diceSelect && dice) {
      for (const c of dice.choices) {
        this.diceSelect.append(h("option", { value: c.key, ...(c.key === dice.defaultChoice ? { selected: true } : {}) }, c.label));
      }
      this.diceSelect.addEventListener("change", () => this.refresh());
    }
    this.body = h("div", { class: "odds-body", "data-testid": "odds-body" });
    this.root = h(
      "details",
      { class: "odds-box", open: true, "data-testid": "odds" },
      h("summary", {}, "Odds"),
      h(
        "div",
        { class: "odds-controls" },
        h("label", { class: "field" }, h("span", {}, "for"), this.targetSelect),
        this.diceSelect ? h("label", { class: "field" }, h("span", {}, "dice"), this.diceSelect) : null,
      ),
      this.body,
    );
    this.showText("Choose a target to see the odds.", "idle");
  }

  update(state: PlayState): void {
    // Follow the option the server holds when it changes.
    const a = state.answered[this.decision.id];
    const held = a && a.steps.length === 0 ? a.option : "";
    if (held !== this.followed) {
      this.followed = held;
      if ([...this.targetSelect.options].some((o) => o.value === held)) this.targetSelect.value = held;
    }
    this.refresh();
  }

  private refresh(): void {
    const proposal = oddsProposal(this.decision, this.targetSelect.value, Number(this.diceSelect?.value ?? 0));
    const key = proposalKey(proposal);
    if (key === this.key) return;
    this.key = key;
    const n = ++this.asked;
    if (!proposal) return this.showText("Choose a target to see the odds.", "idle");
    this.showText("Asking the server…", "loading");
    this.cb.askOdds(proposal).then(
      (reply) => {
        if (n === this.asked) this.showReply(reply);
      },
      (e: unknown) => {
        if (n !== this.asked) return;
        clear(this.body);
        this.root.dataset.state = "refused";
        this.body.append(h("p", { class: "refusal", role: "alert", "data-testid": "odds-error" }, `No odds: ${e instanceof Error ? e.message : String(e)}`));
      },
    );
  }

  private showText(text: string, state: string): void {
    clear(this.body);
    this.root.dataset.state = state;
    this.body.append(h("p", { class: "muted" }, text));
  }

  private showReply(reply: OddsReply): void {
    clear(this.body);
    this.root.dataset.state = "shown";
    const rows = oddsLines(reply).map((l) =>
      h("tr", { "data-outcome": l.label }, h("th", { scope: "row" }, l.label), h("td", { class: "num" }, l.fraction || "—"), h("td", { class: "num" }, l.percent)),
    );
    this.body.append(
      h("p", { class: "odds-summary", "data-testid": "odds-summary" }, reply.summary),
      h(
        "table",
        { class: "odds-table", "data-testid": "odds-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "outcome"), h("th", { scope: "col" }, "exactly"), h("th", { scope: "col" }, "chance"))),
        h("tbody", {}, ...rows),
      ),
    );
    if (reply.notes.length) this.body.append(h("ul", { class: "odds-notes muted" }, ...reply.notes.map((t) => h("li", {}, t))));
  }
}

// The order being written: a list of steps, each an action and the fields it
// uses, sent as one answer.
class StepEditor {
  readonly root: HTMLDetailsElement;
  private readonly rows: HTMLOListElement;
  private readonly form: HTMLFormElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly addButton: HTMLButtonElement;
  private readonly dirtyNote: HTMLElement;
  private shown: DraftStep[] | undefined;
  private disabled = false;
  private readonly actions: string[];

  constructor(
    private readonly decision: Decision,
    private readonly cb: OrdersPanelCallbacks,
    open: boolean,
  ) {
    const words = cb.vocabulary();
    const all = words.allActions();
    const known = words.actionsFor(decision.kind);
    this.actions = known ? [...known, ...all.filter((a) => !known.includes(a))] : all;
    this.rows = h("ol", { class: "step-rows", "aria-label": "Order steps" });
    this.addButton = h("button", { type: "button", class: "small", "data-testid": "add-step" }, "+ Add step");
    this.addButton.addEventListener("click", () => {
      const steps = [...this.current(), emptyDraft(this.actions[0])];
      this.commit(steps, true);
      this.rows.querySelector<HTMLSelectElement>(`li:last-child select`)?.focus();
    });
    this.sendButton = h("button", { type: "submit", class: "primary small", "data-testid": "send-order" }, "Send order");
    this.dirtyNote = h("span", { class: "dirty-note muted", "aria-live": "polite" });
    this.form = h(
      "form",
      // The server judges the numbers: no browser validation in the way.
      { class: "step-editor", novalidate: true },
      this.rows,
      h("div", { class: "editor-actions" }, this.addButton, this.sendButton, this.dirtyNote),
    );
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (this.disabled) return;
      this.cb.sendSteps(this.decision, this.current());
    });
    this.root = h(
      "details",
      { class: "order-box", ...(open ? { open: true } : {}) },
      h("summary", {}, open ? "Order" : "Order steps instead"),
      this.form,
    );
  }

  update(state: PlayState): void {
    const steps = state.drafts[this.decision.id] ?? [];
    this.disabled = state.locked || !!state.sending[this.decision.id];
    // Rebuild only when the draft changed from outside this editor (a new
    // step, a reload): typing keeps its focus and caret.
    if (steps !== this.shown) {
      this.shown = steps;
      this.renderRows(steps);
    }
    for (const el of this.form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLButtonElement>("input, select, button")) {
      el.disabled = this.disabled || el.dataset.edge === "true";
    }
    this.sendButton.disabled = this.disabled || steps.length === 0;
    const answered = state.answered[this.decision.id];
    const same = answered && !answered.defaulted && sameSteps(answered, steps);
    this.dirtyNote.textContent = steps.length === 0 ? "" : same ? "Sent." : answered?.steps.length ? "Changed since sent." : "Not sent yet.";
  }

  private current(): DraftStep[] {
    return this.shown ?? [];
  }

  // A new draft from the editor. Structural edits rebuild the rows here; field
  // edits leave them alone.
  private commit(steps: DraftStep[], rebuild: boolean): void {
    this.shown = steps;
    if (rebuild) this.renderRows(steps);
    this.cb.focusDecision(this.decision.id);
    this.cb.editDraft(this.decision.id, steps);
  }

  private renderRows(steps: DraftStep[]): void {
    clear(this.rows);
    steps.forEach((st, i) => this.rows.append(this.row(st, i, steps.length)));
    if (steps.length === 0) this.rows.append(h("li", { class: "muted empty-steps" }, "No steps yet."));
  }

  private row(st: DraftStep, i: number, n: number): HTMLLIElement {
    const n1 = i + 1;
    const set = (patch: Partial<DraftStep>, rebuild = false) => {
      const steps = this.current().map((x, j) => (j === i ? { ...x, ...patch } : x));
      this.commit(steps, rebuild);
    };
    const words = this.cb.vocabulary();
    const action = h("select", { "aria-label": `Step ${n1}: action`, "data-field": "action" });
    const listed = this.actions.includes(st.action) ? this.actions : [st.action, ...this.actions];
    for (const a of listed) action.append(h("option", { value: a, ...(a === st.action ? { selected: true } : {}) }, words.actionLabel(a)));
    action.addEventListener("change", () => {
      set(withAction(st, action.value, words.stepFields(action.value)), true);
      this.rows.querySelectorAll<HTMLSelectElement>("select[data-field=action]")[i]?.focus();
    });

    const fields = words.stepFields(st.action);
    const num = (label: string, key: "distance" | "angleDeg" | "toX" | "toY", extra: Record<string, string | number | undefined> = {}) => {
      const input = h("input", {
        type: "number",
        inputmode: "decimal",
        step: key === "angleDeg" ? 1 : 0.1,
        value: String(st[key]),
        "data-field": key,
        "aria-label": `Step ${n1}: ${label}`,
        ...extra,
      });
      input.addEventListener("input", () => {
        const v = input.valueAsNumber;
        if (Number.isFinite(v)) set({ [key]: v } as Partial<DraftStep>);
      });
      return h("label", { class: "field" }, h("span", {}, label), input);
    };
    const choice = (label: string, key: "pivot", values: string[]) => {
      const sel = h("select", { "data-field": key, "aria-label": `Step ${n1}: ${label}` }, h("option", { value: "" }, "—"));
      for (const v of values) sel.append(h("option", { value: v, ...(st[key] === v ? { selected: true } : {}) }, v));
      sel.addEventListener("change", () => set({ [key]: sel.value }));
      return h("label", { class: "field" }, h("span", {}, label), sel);
    };
    const text = (label: string, key: "formation" | "target", list?: string) => {
      const input = h("input", {
        type: "text",
        value: st[key],
        "data-field": key,
        "aria-label": `Step ${n1}: ${label}`,
        ...(list ? { list } : {}),
        size: 12,
      });
      input.addEventListener("input", () => set({ [key]: input.value.trim() }));
      return h("label", { class: "field" }, h("span", {}, label), input);
    };

    const parts: HTMLElement[] = [];
    for (const f of fields) {
      if (f === "distance") parts.push(num(words.unit(), "distance", { min: 0 }));
      if (f === "angleDeg") parts.push(num(st.action === "forward" ? "deviation ° (cw)" : "angle ° (cw)", "angleDeg", { min: -180, max: 180 }));
      if (f === "pivot") parts.push(choice("pivot", "pivot", ["left", "right"]));
      if (f === "side") parts.push(choice("side", "pivot", ["left", "right"]));
      if (f === "formation") parts.push(text("formation", "formation", "galloper-formations"));
      if (f === "target") parts.push(text("target id", "target", "galloper-unit-ids"));
      if (f === "to") parts.push(num("x", "toX"), num("y", "toY"));
    }

    const tool = (label: string, title: string, fn: () => void, disabled: boolean) => {
      const b = h("button", { type: "button", class: "small tool", title, "aria-label": `${title} (step ${n1})`, ...(disabled ? { disabled: true, "data-edge": "true" } : {}) }, label);
      b.addEventListener("click", fn);
      return b;
    };
    const move = (to: number) => {
      const steps = [...this.current()];
      const [x] = steps.splice(i, 1);
      steps.splice(to, 0, x!);
      this.commit(steps, true);
    };
    return h(
      "li",
      { class: "step-row", "data-step-index": i, "data-action": st.action },
      h("div", { class: "step-main" }, action, ...parts),
      h(
        "div",
        { class: "step-tools" },
        tool("↑", "Move up", () => move(i - 1), i === 0),
        tool("↓", "Move down", () => move(i + 1), i === n - 1),
        tool("✕", "Remove", () => {
          this.commit(this.current().filter((_, j) => j !== i), true);
          (this.rows.querySelector<HTMLElement>("select") ?? this.addButton).focus();
        }, false),
      ),
    );
  }
}

// Shared <datalist>s for the editors (formation names, unit ids in view).
export function editorDatalists(view: GameView | null, words: Vocabulary): HTMLElement {
  const formations = h("datalist", { id: "galloper-formations" });
  for (const f of words.formations()) formations.append(h("option", { value: f }));
  const units = h("datalist", { id: "galloper-unit-ids" });
  for (const u of view?.units ?? []) units.append(h("option", { value: u.id }, u.name || u.id));
  return h("div", { hidden: true }, formations, units);
}

function renderLimits(limits: readonly Limit[]): HTMLElement {
  return h(
    "dl",
    { class: "limits", "aria-label": "Limits" },
    ...limits.flatMap((l) => [h("dt", {}, humanize(l.name)), h("dd", { "data-limit": l.name }, formatNumber(l.value))]),
  );
}

function describeAnswer(d: Decision, a: Answered | undefined, words: Vocabulary): string {
  if (!a) return d.defaultOption ? `If you lock without answering: ${labelOf(d, d.defaultOption)}.` : "";
  if (a.defaulted) return `Default taken: ${labelOf(d, a.option) || "none"}.`;
  if (a.steps.length) return `Sent: ${a.steps.map((s) => words.actionLabel(s.action)).join(", ")}.`;
  return `Sent: ${labelOf(d, a.option)}.`;
}

function refusedKey(state: PlayState | null, refused: readonly Decision[]): string {
  return refused.length === 0 || !state ? "" : `${state.step}|${refused.map((d) => `${d.id}:${state.refused[d.id]}`).join(",")}`;
}

// A decision as a player reads it on its card: its prompt, else its id.
function labelOfDecision(d: Decision): string {
  return d.prompt ? `“${d.prompt}”` : d.id;
}

function labelOf(d: Decision, optionId: string): string {
  return d.options.find((o) => o.id === optionId)?.label || optionId;
}

function sameSteps(a: Answered, steps: DraftStep[]): boolean {
  if (a.steps.length !== steps.length) return false;
  return a.steps.every((s, i) => {
    const d = steps[i]!;
    return (
      s.action === d.action &&
      s.distance === d.distance &&
      s.angleDeg === d.angleDeg &&
      s.pivot === d.pivot &&
      s.formation === d.formation &&
      s.target === d.target &&
      (s.to?.x ?? 0) === d.toX &&
      (s.to?.y ?? 0) === d.toY
    );
  });
}

export function humanize(name: string): string {
  const t = name.replace(/[_-]+/g, " ").trim();
  return t ? t[0]!.toUpperCase() + t.slice(1) : name;
}

function formatNumber(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 100) / 100);
}
