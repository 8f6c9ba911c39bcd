// The WebSocket protocol client: one Envelope per binary frame, requests
// matched to replies by correlation id, pushed messages (correlation 0)
// dispatched to listeners, reconnect with backoff when the socket drops.
//
// It decides nothing about the game: it carries requests and replies.
import { create, fromBinary, fromJsonString, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import {
  EnvelopeSchema,
  ErrorCode,
  type AnswerAccepted,
  type AnswersLocked,
  type OddsReply,
  type AuditTrail,
  type ChatChannel,
  type ChatSent,
  type Envelope,
  type GameCreated,
  type GameList,
  type Joined,
  type ScenarioList,
  type UmpireDone,
  type Welcome,
  type GameSettingsSchema,
  type UmpireActionSchema,
} from "@gen/galloper/v1/protocol_pb";
import type { Answer, GameView } from "@gen/galloper/v1/game_pb";
import { backoffDelay, defaultBackoff, type BackoffOptions } from "./backoff";
import type { OddsProposal } from "../play/odds";
import { GalloperError, connectionLost } from "./errors";
import { browserSocketFactory, type SocketFactory, type SocketLike } from "./socket";
import { applyViewChange } from "./viewChange";

export const PROTOCOL_MAJOR = 1;
export const PROTOCOL_MINOR = 1;  // 1: takes a StepResolved view as a change (viewChange.ts)

type Body = Envelope["body"];
export type BodyCase = NonNullable<Body["case"]>;
export type BodyOf<C extends BodyCase> = Extract<Body, { case: C }>["value"];
// What a caller may put in a request: the oneof with a plain-object value.
export type RequestBody = Exclude<MessageInitShape<typeof EnvelopeSchema>["body"], undefined | { case: undefined }>;

// "refused": the server turned the connection away with a reason (close code
// 1013, e.g. too many connections from one address). The client does not
// retry by itself: the reason is shown (`refusal`) and retry() tries again.
export type ConnectionState = "idle" | "connecting" | "open" | "reconnecting" | "closed" | "refused";

// WebSocket close code "Try Again Later": the server accepted the handshake
// only to say why it will not serve this connection now.
export const CLOSE_TRY_AGAIN_LATER = 1013;

export interface ClientOptions {
  url: string;
  socketFactory?: SocketFactory;
  clientName?: string;
  requestTimeoutMs?: number;
  reconnect?: boolean;
  backoff?: BackoffOptions;
}

interface Pending {
  expect: BodyCase;
  resolve: (value: unknown) => void;
  reject: (err: GalloperError) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

type Listener<T> = (value: T) => void;

const WS_OPEN = 1;

export class GalloperClient {
  private readonly url: string;
  private readonly socketFactory: SocketFactory;
  private readonly clientName: string;
  private readonly requestTimeoutMs: number;
  private readonly reconnectEnabled: boolean;
  private readonly backoff: BackoffOptions;

  private socket: SocketLike | undefined;
  private nextCorrelation = 1n;
  private readonly pending = new Map<bigint, Pending>();
  private stateValue: ConnectionState = "idle";
  private attempt = 0;
  private everOpened = false;
  private closedByUser = false;
  private refusalReason = "";
  // Refused since the last open connection: the next one that opens is
  // announced as a reconnect (pages join again, or reload their lists).
  private refusedSinceOpen = false;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private openWaiters: { resolve: () => void; reject: (e: GalloperError) => void }[] = [];

  private readonly pushListeners = new Set<Listener<Envelope>>();
  private readonly viewListeners = new Set<Listener<GameView>>();
  private readonly stateListeners = new Set<Listener<ConnectionState>>();
  private readonly reconnectedListeners = new Set<Listener<Welcome>>();

  // The seat's whole view as this connection was last sent it (Joined, a
  // view push, a StepResolved): a StepResolved's view told as a change is
  // applied to it (viewChange.ts).
  private heldView: GameView | undefined;

  welcome: Welcome | undefined;

  constructor(opts: ClientOptions) {
    this.url = opts.url;
    this.socketFactory = opts.socketFactory ?? browserSocketFactory;
    this.clientName = opts.clientName ?? "galloper-web";
    this.requestTimeoutMs = opts.requestTimeoutMs ?? 15_000;
    this.reconnectEnabled = opts.reconnect ?? true;
    this.backoff = opts.backoff ?? defaultBackoff;
  }

  get state(): ConnectionState {
    return this.stateValue;
  }

  // The server's reason while the state is "refused" ("" otherwise).
  get refusal(): string {
    return this.stateValue === "refused" ? this.refusalReason : "";
  }

  // The URL this client connects to.
  get endpoint(): string {
    return this.url;
  }

  // Resolves once the Hello/Welcome handshake has succeeded (retrying with
  // backoff while the server is unreachable); rejects if the server refuses
  // the handshake or close() is called first.
  connect(): Promise<Welcome> {
    if (this.stateValue === "idle" || this.stateValue === "closed") {
      this.closedByUser = false;
      this.openSocket();
    }
    return this.waitOpen().then(() => this.welcome as Welcome);
  }

  // After a refusal (or a close): try the server again now.
  retry(): Promise<Welcome> {
    if (this.stateValue === "refused" || this.stateValue === "closed") {
      this.attempt = 0;
      this.setState("idle");
    }
    return this.connect();
  }

  close(): void {
    this.closedByUser = true;
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      detach(socket);
      socket.close(1000, "client closed");
    }
    this.failPending("closed by the client");
    this.failOpenWaiters(connectionLost("closed by the client"));
    this.setState("closed");
  }

  // Sends one request and resolves with the reply's body of the expected
  // case; an Error reply rejects with a GalloperError carrying its code.
  // While (re)connecting the request waits for the handshake, within the
  // same timeout.
  async request<C extends BodyCase>(body: RequestBody, expect: C): Promise<BodyOf<C>> {
    if (this.stateValue === "open") return this.send(body, expect, this.requestTimeoutMs);
    const deadline = Date.now() + this.requestTimeoutMs;
    await withTimeout(this.waitOpen(), this.requestTimeoutMs, () => timeoutError(body.case, 0n));
    return this.send(body, expect, Math.max(0, deadline - Date.now()));
  }

  // The bundled scenarios; or, given an uploaded scenario's text, that one
  // scenario checked as CreateGame would check it (its seats, or BAD_SCENARIO
  // with the problems). Nothing is stored.
  listScenarios(upload?: { text: string }): Promise<ScenarioList> {
    return this.request({ case: "listScenarios", value: { scenarioText: upload?.text ?? "" } }, "scenarioList");
  }

  listGames(): Promise<GameList> {
    return this.request({ case: "listGames", value: {} }, "gameList");
  }

  // `scenario`: a bundled scenario's name, or `{ text }`, an uploaded
  // scenario in protobuf text format (the server checks it: BAD_SCENARIO
  // with the problems in the error's context).
  createGame(
    scenario: string | { text: string },
    title: string,
    settings?: MessageInitShape<typeof GameSettingsSchema>,
  ): Promise<GameCreated> {
    const source =
      typeof scenario === "string"
        ? { case: "scenarioName" as const, value: scenario }
        : { case: "scenarioText" as const, value: scenario.text };
    return this.request(
      {
        case: "createGame",
        value: { source, title, ...(settings ? { settings } : {}) },
      },
      "gameCreated",
    );
  }

  // `token` is an invite token or, after a reconnect, the resume token.
  // `lastSequence`: the last event this page accounted for (0 on a first
  // join); the server follows Joined with EventsSince, the events after it
  // (every event the seat may see on a first join: this page has none yet).
  // `lastChatSequence`: the last chat message this page has (0: none); the
  // server sends every later one the seat may read, in the same EventsSince
  // pages (`more` set on all but the last).
  joinGame(gameId: string, token: string, lastSequence = 0n, lastChatSequence = 0n): Promise<Joined> {
    const fullHistory = lastSequence === 0n;
    return this.request(
      { case: "joinGame", value: { gameId, token, lastSequence, fullHistory, lastChatSequence } },
      "joined",
    );
  }

  // Every umpire action carries a reason (the audit trail); players may send
  // pause and resume only, which the server enforces.
  umpireAction(
    gameId: string,
    reason: string,
    action: NonNullable<MessageInitShape<typeof UmpireActionSchema>["action"]>,
  ): Promise<UmpireDone> {
    return this.request({ case: "umpireAction", value: { gameId, reason, action } }, "umpireDone");
  }

  listAudit(gameId: string): Promise<AuditTrail> {
    return this.request({ case: "listAudit", value: { gameId } }, "auditTrail");
  }

  sendChat(gameId: string, channel: ChatChannel, text: string, toSeat = ""): Promise<ChatSent> {
    return this.request({ case: "sendChat", value: { gameId, channel, text, toSeat } }, "chatSent");
  }

  // Answers one decision for the seat this connection holds (again to revise,
  // until the seat locks). An illegal answer rejects with ILLEGAL_ANSWER and
  // the server's reason as the message.
  submitAnswer(gameId: string, step: bigint, answer: Answer): Promise<AnswerAccepted> {
    return this.request({ case: "submitAnswer", value: { gameId, step, answer } }, "answerAccepted");
  }

  // The exact odds of a proposed charge or shot as this seat sees the table.
  // A question: nothing is stored. A refusal rejects with the rules' reason.
  odds(gameId: string, proposal: OddsProposal): Promise<OddsReply> {
    return this.request({ case: "oddsRequest", value: { gameId, proposal } }, "oddsReply");
  }

  lockAnswers(gameId: string, step: bigint): Promise<AnswersLocked> {
    return this.request({ case: "lockAnswers", value: { gameId, step } }, "answersLocked");
  }

  onPush(fn: Listener<Envelope>): () => void {
    return subscribe(this.pushListeners, fn);
  }
  onView(fn: Listener<GameView>): () => void {
    return subscribe(this.viewListeners, fn);
  }
  onState(fn: Listener<ConnectionState>): () => void {
    return subscribe(this.stateListeners, fn);
  }
  // After a dropped connection is re-established and the handshake redone:
  // the place to re-join a game with its resume token.
  onReconnected(fn: Listener<Welcome>): () => void {
    return subscribe(this.reconnectedListeners, fn);
  }

  // ---- internals ----

  private waitOpen(): Promise<void> {
    if (this.stateValue === "open") return Promise.resolve();
    if (this.stateValue === "refused") return Promise.reject(refusedError(this.refusalReason));
    if (this.stateValue === "closed" || this.stateValue === "idle") {
      return Promise.reject(connectionLost("not connected"));
    }
    return new Promise((resolve, reject) => this.openWaiters.push({ resolve, reject }));
  }

  private send<C extends BodyCase>(body: RequestBody, expect: C, timeoutMs: number): Promise<BodyOf<C>> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WS_OPEN) {
      return Promise.reject(connectionLost("socket not open"));
    }
    const correlationId = this.nextCorrelation++;
    const envelope = create(EnvelopeSchema, { correlationId, body });
    return new Promise<BodyOf<C>>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(correlationId)) reject(timeoutError(body.case, correlationId));
      }, timeoutMs);
      this.pending.set(correlationId, {
        expect,
        resolve: resolve as (v: unknown) => void,
        reject,
        timer,
      });
      try {
        socket.send(toBinary(EnvelopeSchema, envelope));
      } catch (e) {
        clearTimeout(timer);
        this.pending.delete(correlationId);
        reject(connectionLost(String(e), correlationId));
      }
    });
  }

  private openSocket(): void {
    this.setState(this.everOpened ? "reconnecting" : "connecting");
    let socket: SocketLike;
    try {
      socket = this.socketFactory(this.url);
    } catch (e) {
      this.scheduleReconnect(String(e));
      return;
    }
    this.socket = socket;
    socket.binaryType = "arraybuffer";
    socket.onopen = () => this.handshake(socket);
    socket.onmessage = (ev) => this.onFrame(ev.data);
    socket.onerror = () => {
      /* the close event that follows does the work */
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.heldView = undefined;  // the next connection is sent a whole view on joining
      detach(socket);
      if (ev?.code === CLOSE_TRY_AGAIN_LATER && !this.closedByUser) {
        this.onRefused(ev.reason || "the server cannot take this connection now; try again later");
        return;
      }
      this.onSocketClosed(ev?.reason || `code ${ev?.code ?? "?"}`);
    };
  }

  private handshake(socket: SocketLike): void {
    const hello: RequestBody = {
      case: "hello",
      value: {
        protocol: { major: PROTOCOL_MAJOR, minor: PROTOCOL_MINOR },
        clientName: this.clientName,
      },
    };
    this.send(hello, "welcome", this.requestTimeoutMs).then(
      (welcome) => {
        if (this.socket !== socket) return;
        this.welcome = welcome;
        const wasReconnect = this.everOpened || this.refusedSinceOpen;
        this.everOpened = true;
        this.refusedSinceOpen = false;
        this.attempt = 0;
        this.setState("open");
        const waiters = this.openWaiters;
        this.openWaiters = [];
        for (const w of waiters) w.resolve();
        if (wasReconnect) for (const fn of this.reconnectedListeners) fn(welcome);
      },
      (err: GalloperError) => {
        if (this.socket !== socket) return;
        if (!err.local) {
          // The server refused the handshake (e.g. version mismatch): retrying
          // would be refused again.
          this.failOpenWaiters(err);
          this.close();
        } else {
          socket.close(4000, "handshake failed");
        }
      },
    );
  }

  private onSocketClosed(reason: string): void {
    this.failPending(reason);
    if (this.closedByUser || !this.reconnectEnabled) {
      this.failOpenWaiters(connectionLost(reason));
      this.setState("closed");
      return;
    }
    this.scheduleReconnect(reason);
  }

  // Retrying at once would be turned away again for the same reason, and
  // retrying quietly would hide it: stop, and let the page show the reason.
  private onRefused(reason: string): void {
    if (this.reconnectTimer !== undefined) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.refusalReason = reason;
    this.refusedSinceOpen = true;
    const err = refusedError(reason);
    const pending = [...this.pending.entries()];
    this.pending.clear();
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      p.reject(refusedError(reason, id));
    }
    this.failOpenWaiters(err);
    this.setState("refused");
  }

  private scheduleReconnect(_reason: string): void {
    const delay = backoffDelay(this.attempt++, this.backoff);
    this.setState(this.everOpened ? "reconnecting" : "connecting");
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (!this.closedByUser) this.openSocket();
    }, delay);
  }

  private onFrame(data: unknown): void {
    let envelope: Envelope;
    try {
      if (typeof data === "string") {
        envelope = fromJsonString(EnvelopeSchema, data);
      } else if (data instanceof ArrayBuffer) {
        envelope = fromBinary(EnvelopeSchema, new Uint8Array(data));
      } else if (data instanceof Uint8Array) {
        envelope = fromBinary(EnvelopeSchema, data);
      } else {
        console.warn("galloper: ignoring a frame of unknown type");
        return;
      }
    } catch (e) {
      console.warn("galloper: ignoring an undecodable frame", e);
      return;
    }

    const id = envelope.correlationId;
    if (id === 0n) {
      this.dispatchPush(envelope);
      return;
    }
    const pending = this.pending.get(id);
    if (!pending) {
      console.warn(`galloper: reply for unknown correlation id ${id}`);
      return;
    }
    this.pending.delete(id);
    clearTimeout(pending.timer);
    const body = envelope.body;
    if (body.case === "error") {
      pending.reject(
        new GalloperError({
          code: body.value.code,
          message: body.value.message,
          context: { ...body.value.context },
          correlationId: id,
        }),
      );
    } else if (body.case !== pending.expect) {
      pending.reject(
        new GalloperError({
          code: ErrorCode.UNKNOWN_MESSAGE,
          message: `expected ${pending.expect}, got ${body.case ?? "an empty envelope"}`,
          correlationId: id,
          local: true,
        }),
      );
    } else {
      if (body.case === "joined") this.heldView = body.value.view;
      pending.resolve(body.value);
    }
  }

  private dispatchPush(envelope: Envelope): void {
    const body = envelope.body;
    if (body.case === "stepResolved" && body.value.change && body.value.view) {
      // Listeners always get a whole view: the change is applied here.
      const applied = this.heldView
        ? applyViewChange(this.heldView, body.value.view, body.value.change)
        : { ok: false as const, reason: "a view change came before any whole view" };
      if (!applied.ok) {
        // The view can no longer be trusted: reconnect, and joining again
        // sends the seat's view whole.
        console.warn(`galloper: ${applied.reason}; reconnecting for a whole view`);
        this.socket?.close(4001, "view change did not apply");
        return;
      }
      body.value.view = applied.view;
      body.value.change = undefined;
    }
    for (const fn of this.pushListeners) fn(envelope);
    // A resolved step carries the seat's new view: view listeners get it too.
    const view = body.case === "view" ? body.value : body.case === "stepResolved" ? body.value.view : undefined;
    if (view) {
      this.heldView = view;
      for (const fn of this.viewListeners) fn(view);
    }
  }

  private failPending(reason: string): void {
    const pending = [...this.pending.entries()];
    this.pending.clear();
    for (const [id, p] of pending) {
      clearTimeout(p.timer);
      p.reject(connectionLost(reason, id));
    }
  }

  private failOpenWaiters(err: GalloperError): void {
    const waiters = this.openWaiters;
    this.openWaiters = [];
    for (const w of waiters) w.reject(err);
  }

  private setState(state: ConnectionState): void {
    if (this.stateValue === state) return;
    this.stateValue = state;
    for (const fn of this.stateListeners) fn(state);
  }
}

function subscribe<T>(set: Set<Listener<T>>, fn: Listener<T>): () => void {
  set.add(fn);
  return () => set.delete(fn);
}

function detach(socket: SocketLike): void {
  socket.onopen = null;
  socket.onmessage = null;
  socket.onerror = null;
  socket.onclose = null;
}

function refusedError(reason: string, correlationId = 0n): GalloperError {
  return new GalloperError({ code: ErrorCode.RATE_LIMITED, message: reason, correlationId, local: true });
}

function timeoutError(what: string, correlationId: bigint): GalloperError {
  return new GalloperError({
    code: ErrorCode.UNSPECIFIED,
    message: `no reply to ${what} in time`,
    correlationId,
    local: true,
  });
}

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => GalloperError): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
