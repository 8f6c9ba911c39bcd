// Chat: the messages this seat may read (pushed live, and the history the
// server sends with EventsSince on joining), and a form to write on a
// channel. Who may read what is the server's business: the panel shows what
// it was sent, and the server's refusal if a message is not accepted.
import type { ChatChannel, ChatMessage } from "@gen/galloper/v1/protocol_pb";
import { channelLabel, channelsFor, type ChannelChoice } from "../game/life";
import { clear, h } from "./dom";
import { describeError } from "./shell";

export interface ChatCallbacks {
  send(channel: ChatChannel, text: string, toSeat: string): Promise<void>;
}

const MAX_CHAT = 2000;

export class ChatPanel {
  readonly root: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly empty: HTMLElement;
  private readonly channel: HTMLSelectElement;
  private readonly toSeat: HTMLInputElement;
  private readonly toSeatField: HTMLElement;
  private readonly seatsList: HTMLDataListElement;
  private readonly text: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly error: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly readOnly: HTMLElement;
  private choices: ChannelChoice[] = [];
  private seat = "";
  private shown = 0;

  constructor(private readonly cb: ChatCallbacks) {
    this.list = h("ol", { class: "chat-list", "data-testid": "chat-list" });
    this.empty = h("p", { class: "muted", "data-testid": "chat-empty" }, "No messages yet.");
    this.channel = h("select", { "data-testid": "chat-channel", "aria-label": "Channel" });
    this.seatsList = h("datalist", { id: "chat-seats" });
    this.toSeat = h("input", { type: "text", list: "chat-seats", placeholder: "seat, e.g. red/army", "data-testid": "chat-to-seat", "aria-label": "To seat" });
    this.toSeatField = h("label", { class: "field chat-to", hidden: true }, "To seat", this.toSeat, this.seatsList);
    this.text = h("textarea", { rows: 2, maxlength: MAX_CHAT, placeholder: "Message", "data-testid": "chat-text", "aria-label": "Message" });
    this.sendButton = h("button", { type: "submit", class: "primary small", "data-testid": "chat-send" }, "Send");
    this.error = h("p", { class: "refusal", role: "alert", hidden: true, "data-testid": "chat-error" });
    const form = (this.form = h(
      "form",
      { class: "chat-form", "aria-label": "Write a message" },
      h("div", { class: "chat-row" }, h("label", { class: "field" }, "Channel", this.channel), this.toSeatField),
      this.text,
      h("div", { class: "chat-row" }, this.sendButton),
      this.error,
    ));
    this.readOnly = h("p", { class: "muted", hidden: true }, "Spectators read the messages to everyone; they do not write.");
    this.channel.addEventListener("change", () => this.syncChannel());
    this.text.addEventListener("keydown", (e) => {
      // Enter sends; Shift+Enter starts a new line.
      if (e.key === "Enter" && !e.shiftKey) {
        e.preventDefault();
        form.requestSubmit();
      }
    });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.submit();
    });
    this.root = h(
      "section",
      { class: "chat-panel", "data-testid": "chat-panel", "aria-labelledby": "chat-title" },
      h("h2", { id: "chat-title" }, "Chat"),
      h("div", { class: "chat-scroll", role: "log", "aria-label": "Chat messages", "aria-live": "polite", tabindex: 0 }, this.empty, this.list),
      form,
      this.readOnly,
    );
  }

  // The channels follow the seat (the umpire writes privately to a seat).
  setSeat(seat: string): void {
    if (seat === this.seat) return;
    this.seat = seat;
    this.form.hidden = seat === "spectator";
    this.readOnly.hidden = seat !== "spectator";
    this.choices = channelsFor(seat);
    clear(this.channel);
    for (const c of this.choices) this.channel.append(h("option", { value: c.key }, c.label));
    this.syncChannel();
  }

  setKnownSeats(seats: readonly string[]): void {
    clear(this.seatsList);
    for (const s of seats) if (s !== "umpire") this.seatsList.append(h("option", { value: s }));
  }

  render(messages: readonly ChatMessage[], mySeat: string): void {
    if (messages.length < this.shown) {
      clear(this.list);
      this.shown = 0;
    }
    const scroller = this.list.parentElement!;
    const atBottom = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 24;
    for (const m of messages.slice(this.shown)) this.list.append(item(m, mySeat));
    this.shown = messages.length;
    this.empty.hidden = messages.length > 0;
    if (atBottom) scroller.scrollTop = scroller.scrollHeight;
  }

  private syncChannel(): void {
    const c = this.current();
    this.toSeatField.hidden = !c?.toSeat;
  }

  private current(): ChannelChoice | undefined {
    return this.choices.find((c) => c.key === this.channel.value);
  }

  private async submit(): Promise<void> {
    const c = this.current();
    const text = this.text.value.trim();
    this.error.hidden = true;
    if (!c) return;
    if (!text) {
      this.showError("Write something first.");
      return;
    }
    const to = c.toSeat ? this.toSeat.value.trim() : "";
    if (c.toSeat && !to) {
      this.showError("Name the seat to write to.");
      return;
    }
    this.sendButton.disabled = true;
    try {
      await this.cb.send(c.channel, text, to);
      this.text.value = "";
    } catch (e) {
      this.showError(describeError(e));
    } finally {
      this.sendButton.disabled = false;
    }
  }

  private showError(msg: string): void {
    this.error.textContent = msg;
    this.error.hidden = false;
  }
}

function item(m: ChatMessage, mySeat: string): HTMLLIElement {
  const when = m.sentUnix ? new Date(Number(m.sentUnix) * 1000).toLocaleTimeString() : "";
  return h(
    "li",
    {
      class: `chat-message${m.fromSeat === mySeat ? " mine" : ""}`,
      "data-sequence": String(m.sequence),
      "data-channel": channelLabel(m),
      "data-from": m.fromSeat,
    },
    h("span", { class: "chat-meta muted" }, h("strong", { class: "chat-from" }, m.fromSeat), ` · ${channelLabel(m)}${when ? ` · ${when}` : ""}`),
    h("span", { class: "chat-text" }, m.text),
  );
}
