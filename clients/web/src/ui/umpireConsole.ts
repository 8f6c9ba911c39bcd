// The umpire console: pause, resume, force resolve, set the deadline,
// broadcast, end the game, rewind, edit the state, hand a seat to the bot or
// take it back, each with the reason the audit trail
// needs, and the audit trail itself. A player's page shows the same console
// with pause and resume only (the server enforces the limits and says why it
// refuses; the console shows its Error as sent).
import type { AuditEntry, AuditTrail, UmpireDone } from "@gen/galloper/v1/protocol_pb";
import type { EditKind } from "../game/ruleset";
import { actionsFor, type EditField, type EditForm, umpireRequest, type UmpireForm, type UmpireRequest } from "../game/umpire";
import { clear, h } from "./dom";
import { describeError } from "./shell";

export interface UmpireCallbacks {
  act(request: UmpireRequest): Promise<UmpireDone>;
  audit(): Promise<AuditTrail>;
}

const DONE_TEXT: Record<string, string> = {
  pause: "The game is paused.",
  resume: "Play resumes.",
  force_resolve: "The step was forced.",
  set_deadline: "The deadline is set.",
  broadcast: "Broadcast sent.",
  end_game: "The game is over.",
  rewind: "Rewound.",
  edit_state: "The state is edited; every seat has its new view.",
  set_bot_seat: "Done: the seats bar shows the seats the bot plays.",
};

export class UmpireConsole {
  readonly root: HTMLElement;
  private readonly action: HTMLSelectElement;
  private readonly reason: HTMLInputElement;
  private readonly fields: Record<"deadline" | "text" | "result" | "toStep", { wrap: HTMLElement; input: HTMLInputElement | HTMLTextAreaElement }>;
  private readonly editBox: HTMLElement;
  private readonly editKind: HTMLSelectElement;
  private readonly editSubject: HTMLInputElement;
  private readonly editFields: Record<EditField, { wrap: HTMLElement; input: HTMLInputElement | HTMLSelectElement }>;
  private readonly editKeyLabel: HTMLElement;
  private readonly botBox: HTMLElement;
  private readonly botSeat: HTMLInputElement;
  private editKinds: EditKind[] = [];
  private readonly botChoice: HTMLSelectElement;
  private readonly seatList: HTMLDataListElement;
  private bots: string[] = [];
  private readonly submitButton: HTMLButtonElement;
  private readonly outcome: HTMLElement;
  private readonly auditBox: HTMLElement;
  private readonly auditBody: HTMLTableSectionElement;
  private readonly auditEmpty: HTMLElement;
  private readonly auditError: HTMLElement;
  private readonly title: HTMLElement;
  private seat = "";

  constructor(private readonly cb: UmpireCallbacks) {
    this.action = h("select", { "data-testid": "umpire-action", "aria-label": "Action" });
    this.reason = h("input", { type: "text", maxlength: 500, placeholder: "why (goes into the audit trail)", "data-testid": "umpire-reason", "aria-label": "Reason" });
    const field = (key: string, label: string, input: HTMLInputElement | HTMLTextAreaElement) => ({
      wrap: h("label", { class: "field umpire-field", "data-field": key, hidden: true }, label, input),
      input,
    });
    this.fields = {
      deadline: field(
        "deadline",
        "Deadline: minutes from now, or a date-time (empty clears)",
        h("input", { type: "text", placeholder: "e.g. 30 or 2025-06-01T18:00", "data-testid": "umpire-deadline" }),
      ),
      text: field("text", "Message to everyone", h("textarea", { rows: 2, maxlength: 2000, "data-testid": "umpire-text" })),
      result: field("result", "Result (shown to everyone)", h("input", { type: "text", maxlength: 500, "data-testid": "umpire-result-text" })),
      toStep: field("toStep", "Step to return to", h("input", { type: "number", min: 0, step: 1, "data-testid": "umpire-to-step" })),
    };
    this.editKind = h("select", { "data-testid": "edit-kind", "aria-label": "Edit" });
    this.editSubject = h("input", { type: "text", placeholder: "unit or leader id", "data-testid": "edit-subject" });
    const editField = (key: EditField, label: string | HTMLElement, input: HTMLInputElement | HTMLSelectElement) => ({
      wrap: h("label", { class: "field umpire-field", "data-field": key }, label, input),
      input,
    });
    const flag = h("select", { "data-testid": "edit-flag" });
    flag.append(h("option", { value: "yes" }, "has the advantage"), h("option", { value: "no" }, "has not"), h("option", { value: "" }, "clear the ruling"));
    this.editKeyLabel = h("span", {}, "Key");
    this.editFields = {
      x: editField("x", "x (inches)", h("input", { type: "number", step: "any", "data-testid": "edit-x" })),
      y: editField("y", "y (inches)", h("input", { type: "number", step: "any", "data-testid": "edit-y" })),
      facing: editField("facing", "Facing (degrees; empty keeps it)", h("input", { type: "number", step: "any", "data-testid": "edit-facing" })),
      value: editField("value", "Value (DPs, or a leader's wounds)", h("input", { type: "number", step: 1, min: 0, "data-testid": "edit-value" })),
      key: editField("key", this.editKeyLabel, h("input", { type: "text", "data-testid": "edit-key" })),
      flag: editField("flag", "Advantage of ground", flag),
    };
    this.editBox = h(
      "fieldset",
      { class: "umpire-edit", "data-testid": "umpire-edit", hidden: true },
      h("legend", {}, "Edit the state"),
      h("label", { class: "field" }, "Edit", this.editKind),
      h("label", { class: "field" }, "Unit or leader", this.editSubject),
      ...Object.values(this.editFields).map((f) => f.wrap),
    );
    this.editKind.addEventListener("change", () => this.syncFields());
    // Hand a seat to the bot or take it back: the choice follows the seat
    // typed (a bot's seat is offered back), and stays the umpire's to change.
    this.seatList = h("datalist", { id: "umpire-seat-list" });
    this.botSeat = h("input", { type: "text", list: "umpire-seat-list", placeholder: "e.g. red/left", "data-testid": "umpire-bot-seat" });
    this.botChoice = h("select", { "data-testid": "umpire-bot-choice" });
    this.botChoice.append(h("option", { value: "yes" }, "hand it to the bot"), h("option", { value: "no" }, "take it back from the bot"));
    this.botSeat.addEventListener("input", () => (this.botChoice.value = this.bots.includes(this.botSeat.value.trim()) ? "no" : "yes"));
    this.botBox = h(
      "fieldset",
      { class: "umpire-bot", "data-testid": "umpire-bot", hidden: true },
      h("legend", {}, "The bot"),
      h("label", { class: "field" }, "Seat", this.botSeat),
      h("label", { class: "field" }, "Do", this.botChoice),
      this.seatList,
    );
    this.submitButton = h("button", { type: "submit", class: "primary small", "data-testid": "umpire-submit" }, "Do it");
    this.outcome = h("p", { class: "umpire-outcome", role: "status", "data-testid": "umpire-outcome", hidden: true });
    const form = h(
      "form",
      { class: "umpire-form", "aria-label": "Umpire action" },
      h("label", { class: "field" }, "Action", this.action),
      ...Object.values(this.fields).map((f) => f.wrap),
      this.editBox,
      this.botBox,
      h("label", { class: "field" }, "Reason (required)", this.reason),
      h("div", { class: "umpire-row" }, this.submitButton),
      this.outcome,
    );
    this.action.addEventListener("change", () => this.syncFields());
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.submit();
    });

    this.auditBody = h("tbody");
    this.auditEmpty = h("p", { class: "muted" }, "No umpire actions yet.");
    this.auditError = h("p", { class: "refusal", role: "alert", hidden: true });
    const refresh = h("button", { type: "button", class: "small", "data-testid": "audit-refresh" }, "Refresh");
    refresh.addEventListener("click", () => void this.loadAudit());
    this.auditBox = h(
      "div",
      { class: "audit", hidden: true },
      h("div", { class: "card-head" }, h("h3", {}, "Audit trail"), refresh),
      h(
        "div",
        { class: "audit-scroll" },
        h(
          "table",
          { class: "audit-table", "data-testid": "audit-table" },
          h("thead", {}, h("tr", {}, ...["Time", "Seat", "Action", "Step", "Reason", "Detail"].map((t) => h("th", { scope: "col" }, t)))),
          this.auditBody,
        ),
      ),
      this.auditEmpty,
      this.auditError,
    );
    this.title = h("h2", { id: "umpire-title" }, "Umpire");
    this.root = h(
      "section",
      { class: "umpire-console", "data-testid": "umpire-console", "aria-labelledby": "umpire-title" },
      this.title,
      form,
      this.auditBox,
    );
  }

  setSeat(seat: string): void {
    if (seat === this.seat) return;
    this.seat = seat;
    const umpire = seat === "umpire";
    this.root.dataset.role = umpire ? "umpire" : "player";
    this.title.textContent = umpire ? "Umpire console" : "Pause the game";
    clear(this.action);
    for (const a of actionsFor(seat)) this.action.append(h("option", { value: a.kind }, a.label));
    this.syncFields();
    this.auditBox.hidden = !umpire;
    if (umpire) void this.loadAudit();
  }

  // After a notice: the trail has a new line (the umpire's page only).
  refreshAudit(): void {
    if (this.seat === "umpire") void this.loadAudit();
  }

  // The seats the umpire may name (as seen so far) and the ones the bot plays now.
  setSeats(known: readonly string[], bots: readonly string[]): void {
    this.bots = [...bots];
    const options = known.filter((s) => s !== "umpire" && s !== "spectator");
    if (this.seatList.childElementCount === options.length && options.every((s, i) => (this.seatList.children[i] as HTMLOptionElement).value === s)) return;
    clear(this.seatList);
    for (const s of options) this.seatList.append(h("option", { value: s }));
  }

  // The umpire picked a unit (on the map, or in the unit panel): it is the one an edit changes.
  pickUnit(id: string): void {
    if (this.seat !== "umpire") return;
    this.editSubject.value = id;
  }

  // The ruleset's edit kinds (Joined.ruleset), offered in its order.
  setEditKinds(kinds: EditKind[]): void {
    this.editKinds = kinds;
    this.editKind.replaceChildren(...kinds.map((k) => h("option", { value: k.kind }, k.label)));
    this.syncFields();
  }

  private syncFields(): void {
    const kind = this.action.value;
    const wanted: Record<string, keyof typeof this.fields> = { setDeadline: "deadline", broadcast: "text", endGame: "result", rewind: "toStep" };
    for (const [k, f] of Object.entries(this.fields)) f.wrap.hidden = wanted[kind] !== k;
    this.editBox.hidden = kind !== "editState";
    this.botBox.hidden = kind !== "setBotSeat";
    const spec = this.editKinds.find((k) => k.kind === this.editKind.value);
    for (const [k, f] of Object.entries(this.editFields)) f.wrap.hidden = !spec?.fields.includes(k as EditField);
    this.editKeyLabel.textContent = spec?.keyLabel ?? "Key";
  }

  private editForm(): EditForm {
    const v = (k: EditField) => this.editFields[k].input.value;
    return { kind: this.editKind.value, subject: this.editSubject.value, x: v("x"), y: v("y"), facing: v("facing"), value: v("value"), key: v("key"), flag: v("flag") };
  }

  private form(): UmpireForm {
    return {
      kind: this.action.value,
      reason: this.reason.value,
      deadline: this.fields.deadline.input.value,
      text: this.fields.text.input.value,
      result: this.fields.result.input.value,
      toStep: this.fields.toStep.input.value,
      edit: this.editForm(),
      editKinds: this.editKinds,
      seat: this.botSeat.value,
      bot: this.botChoice.value,
    };
  }

  private async submit(): Promise<void> {
    const built = umpireRequest(this.form(), Date.now());
    if (!built.ok) {
      this.show("refused", built.message);
      const target =
        built.field === "reason"
          ? this.reason
          : built.field === "edit"
            ? this.editSubject
            : built.field === "seat"
              ? this.botSeat
              : built.field === "bot"
                ? this.botChoice
            : built.field in this.fields
              ? this.fields[built.field as keyof typeof this.fields].input
              : this.action;
      target.focus();
      return;
    }
    this.submitButton.disabled = true;
    this.show("sending", "Sending…");
    try {
      const done = await this.cb.act(built.request);
      this.show("done", DONE_TEXT[done.action] ?? `Done: ${done.action}.`);
      this.reason.value = "";
      for (const f of Object.values(this.fields)) f.input.value = "";
      this.botSeat.value = "";
      // The edit's fields stay: the next edit is often of the same unit.
      this.refreshAudit();
    } catch (e) {
      this.show("refused", describeError(e));
    } finally {
      this.submitButton.disabled = false;
    }
  }

  private show(state: "sending" | "done" | "refused", text: string): void {
    this.outcome.hidden = false;
    this.outcome.dataset.state = state;
    this.outcome.className = `umpire-outcome ${state === "refused" ? "refusal" : "muted"}`;
    this.outcome.setAttribute("role", state === "refused" ? "alert" : "status");
    this.outcome.textContent = text;
  }

  private async loadAudit(): Promise<void> {
    try {
      const trail = await this.cb.audit();
      this.auditError.hidden = true;
      renderAudit(this.auditBody, trail.entries);
      this.auditEmpty.hidden = trail.entries.length > 0;
    } catch (e) {
      this.auditError.textContent = describeError(e);
      this.auditError.hidden = false;
    }
  }
}

function renderAudit(body: HTMLTableSectionElement, entries: readonly AuditEntry[]): void {
  clear(body);
  for (const e of entries) {
    const at = e.atUnix ? new Date(Number(e.atUnix) * 1000).toLocaleString(undefined, { dateStyle: "short", timeStyle: "medium" }) : "";
    body.append(
      h(
        "tr",
        { "data-action": e.action, "data-seat": e.seat },
        h("td", {}, at),
        h("td", {}, e.seat),
        h("td", {}, e.action),
        h("td", {}, String(e.step)),
        h("td", { class: "audit-reason" }, e.reason),
        h("td", {}, e.action === "set_deadline" && /^\d+$/.test(e.detail) && e.detail !== "0" ? new Date(Number(e.detail) * 1000).toLocaleString() : e.detail),
      ),
    );
  }
}
