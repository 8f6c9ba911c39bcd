import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ErrorCode } from "@gen/galloper/v1/protocol_pb";
import { create } from "@bufbuild/protobuf";
import { AnswerSchema, Knowledge } from "@gen/galloper/v1/game_pb";
import { GalloperClient, type ConnectionState } from "../src/protocol/client";
import { GalloperError } from "../src/protocol/errors";
import { backoffDelay } from "../src/protocol/backoff";
import { socketUrlFor } from "../src/protocol/socket";
import { FakeNetwork } from "./fake_socket";

const noJitter = { initialMs: 100, maxMs: 1000, factor: 2, random: () => 1 };

function makeClient(net: FakeNetwork, extra: Partial<ConstructorParameters<typeof GalloperClient>[0]> = {}) {
  return new GalloperClient({
    url: "ws://127.0.0.1:1/ws",
    socketFactory: net.factory,
    backoff: noJitter,
    requestTimeoutMs: 5000,
    ...extra,
  });
}

async function connected(net: FakeNetwork, client: GalloperClient) {
  const p = client.connect();
  net.current.serverAccept();
  net.current.welcome();
  await p;
}

describe("GalloperClient handshake", () => {
  it("sends Hello with protocol 1.1 and the client name, then resolves with Welcome", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    const states: ConnectionState[] = [];
    client.onState((s) => states.push(s));
    const p = client.connect();
    expect(net.current.url).toBe("ws://127.0.0.1:1/ws");
    net.current.serverAccept();
    expect(net.current.binaryType).toBe("arraybuffer");
    const hello = net.current.last();
    expect(hello.correlationId).not.toBe(0n);
    expect(hello.body.case).toBe("hello");
    if (hello.body.case !== "hello") return;
    expect(hello.body.value.protocol?.major).toBe(1);
    expect(hello.body.value.protocol?.minor).toBe(1);
    expect(hello.body.value.clientName).toBe("galloper-web");
    net.current.welcome();
    const welcome = await p;
    expect(welcome.serverVersion).toBe("test");
    expect(client.state).toBe("open");
    expect(states).toEqual(["connecting", "open"]);
  });

  it("gives up (no reconnect) when the server refuses the version", async () => {
    vi.useFakeTimers();
    try {
      const net = new FakeNetwork();
      const client = makeClient(net);
      const p = client.connect();
      net.current.serverAccept();
      net.current.serverSend({
        correlationId: net.current.last().correlationId,
        body: { case: "error", value: { code: ErrorCode.VERSION_MISMATCH, message: "speak 2" } },
      });
      await expect(p).rejects.toMatchObject({ code: ErrorCode.VERSION_MISMATCH, local: false });
      expect(client.state).toBe("closed");
      await vi.advanceTimersByTimeAsync(10_000);
      expect(net.sockets.length).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("GalloperClient requests", () => {
  it("matches replies by correlation id, in any order", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);

    const scenarios = client.listScenarios();
    const games = client.listGames();
    await Promise.resolve();
    const [scenReq, gamesReq] = net.current.sent.slice(-2);
    expect(scenReq!.body.case).toBe("listScenarios");
    expect(scenReq!.body.case === "listScenarios" && scenReq!.body.value.scenarioText).toBe("");
    expect(gamesReq!.body.case).toBe("listGames");
    expect(scenReq!.correlationId).not.toBe(gamesReq!.correlationId);

    // Reply to the second request first.
    net.current.serverSend({
      correlationId: gamesReq!.correlationId,
      body: { case: "gameList", value: { games: [{ gameId: "g1", title: "Blenheim" }] } },
    });
    net.current.serverSend({
      correlationId: scenReq!.correlationId,
      body: { case: "scenarioList", value: { scenarios: [{ name: "demo", title: "Demo" }] } },
    });
    expect((await games).games[0]!.gameId).toBe("g1");
    expect((await scenarios).scenarios[0]!.name).toBe("demo");
  });

  it("sends CreateGame and JoinGame with their fields", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);

    const created = client.createGame("demo", "Friday game");
    await Promise.resolve();
    const req = net.current.last();
    expect(req.body.case).toBe("createGame");
    if (req.body.case !== "createGame") return;
    expect(req.body.value.source).toEqual({ case: "scenarioName", value: "demo" });
    expect(req.body.value.title).toBe("Friday game");
    net.current.serverSend({
      correlationId: req.correlationId,
      body: {
        case: "gameCreated",
        value: { gameId: "g7", invites: [{ seat: "umpire", token: "u" }, { seat: "red/wing-left", token: "t" }] },
      },
    });
    expect((await created).invites.map((i) => i.seat)).toEqual(["umpire", "red/wing-left"]);

    // An uploaded scenario goes as its text.
    void client.createGame({ text: 'name: "mine"' }, "Upload").catch(() => {});
    await Promise.resolve();
    const upload = net.current.last();
    expect(upload.body.case === "createGame" && upload.body.value.source).toEqual({ case: "scenarioText", value: 'name: "mine"' });
    // Asking the seats of an upload before creating: ListScenarios with its text.
    void client.listScenarios({ text: 'name: "mine"' }).catch(() => {});
    await Promise.resolve();
    const check = net.current.last();
    expect(check.body.case === "listScenarios" && check.body.value.scenarioText).toBe('name: "mine"');

    const joined = client.joinGame("g7", "t");
    await Promise.resolve();
    const join = net.current.last();
    expect(join.body).toMatchObject({ case: "joinGame", value: { gameId: "g7", token: "t" } });
    net.current.serverSend({
      correlationId: join.correlationId,
      body: { case: "joined", value: { gameId: "g7", seat: "red/wing-left", resumeToken: "r", view: { turn: 1 } } },
    });
    const j = await joined;
    expect(j.resumeToken).toBe("r");
    expect(j.view?.turn).toBe(1);
  });

  it("rejects with a typed GalloperError carrying code, message and context", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const p = client.joinGame("g1", "nope");
    await Promise.resolve();
    const id = net.current.last().correlationId;
    net.current.serverSend({
      correlationId: id,
      body: {
        case: "error",
        value: { code: ErrorCode.BAD_TOKEN, message: "token not recognised", context: { game_id: "g1" } },
      },
    });
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GalloperError);
    const ge = err as GalloperError;
    expect(ge.code).toBe(ErrorCode.BAD_TOKEN);
    expect(ge.codeName).toBe("BAD_TOKEN");
    expect(ge.message).toBe("token not recognised");
    expect(ge.context).toEqual({ game_id: "g1" });
    expect(ge.correlationId).toBe(id);
    expect(ge.local).toBe(false);
    expect(ge.describe()).toBe("BAD_TOKEN: token not recognised (game_id: g1)");
  });

  it("rejects a reply of the wrong kind", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const p = client.listGames();
    await Promise.resolve();
    net.current.serverSend({
      correlationId: net.current.last().correlationId,
      body: { case: "scenarioList", value: {} },
    });
    await expect(p).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_MESSAGE, local: true });
  });

  it("decodes text (JSON) frames too", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const p = client.listGames();
    await Promise.resolve();
    net.current.serverSend(
      {
        correlationId: net.current.last().correlationId,
        body: { case: "gameList", value: { games: [{ gameId: "j1" }] } },
      },
      "json",
    );
    expect((await p).games[0]!.gameId).toBe("j1");
  });

  it("times out a request nobody answers", async () => {
    vi.useFakeTimers();
    try {
      const net = new FakeNetwork();
      const client = makeClient(net, { requestTimeoutMs: 1000 });
      await connected(net, client);
      const p = client.listGames();
      const check = expect(p).rejects.toMatchObject({ local: true, message: "no reply to listGames in time" });
      await vi.advanceTimersByTimeAsync(1001);
      await check;
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("GalloperClient play requests", () => {
  it("sends SubmitAnswer and LockAnswers and resolves with their replies", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);

    const submitted = client.submitAnswer("g1", 4n, create(AnswerSchema, { decisionId: "move/b1", steps: [{ action: "forward", distance: 2 }] }));
    const req = net.current.last();
    expect(req.body.case).toBe("submitAnswer");
    if (req.body.case !== "submitAnswer") return;
    expect(req.body.value.gameId).toBe("g1");
    expect(req.body.value.step).toBe(4n);
    expect(req.body.value.answer?.steps[0]?.distance).toBe(2);
    net.current.serverSend({ correlationId: req.correlationId, body: { case: "answerAccepted", value: { decisionId: "move/b1" } } });
    await expect(submitted).resolves.toMatchObject({ decisionId: "move/b1" });

    const locked = client.lockAnswers("g1", 4n);
    const lock = net.current.last();
    expect(lock.body.case).toBe("lockAnswers");
    net.current.serverSend({ correlationId: lock.correlationId, body: { case: "answersLocked", value: { step: 4n, defaulted: ["move/b2"] } } });
    await expect(locked).resolves.toMatchObject({ step: 4n, defaulted: ["move/b2"] });
  });

  it("rejects an illegal answer with the server's reason and context", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const submitted = client.submitAnswer("g1", 4n, create(AnswerSchema, { decisionId: "move/b1" }));
    net.current.serverSend({
      correlationId: net.current.last().correlationId,
      body: {
        case: "error",
        value: { code: ErrorCode.ILLEGAL_ANSWER, message: "Brigade b1 may move 3\", not 5\".", context: { rule: "too_far", decision_id: "move/b1" } },
      },
    });
    await expect(submitted).rejects.toMatchObject({
      code: ErrorCode.ILLEGAL_ANSWER,
      message: "Brigade b1 may move 3\", not 5\".",
      context: { rule: "too_far", decision_id: "move/b1" },
    });
  });
});

describe("GalloperClient pushed messages", () => {
  it("dispatches correlation-0 messages to listeners, views to view listeners", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const pushes: string[] = [];
    const views: number[] = [];
    client.onPush((e) => pushes.push(e.body.case ?? "none"));
    const off = client.onView((v) => views.push(v.turn));

    net.current.serverSend({
      correlationId: 0n,
      body: {
        case: "view",
        value: { turn: 3, units: [{ id: "b1", knowledge: Knowledge.OWN }] },
      },
    });
    net.current.serverSend({
      correlationId: 0n,
      body: { case: "error", value: { code: ErrorCode.RATE_LIMITED, message: "slow down" } },
    });
    off();
    net.current.serverSend({ correlationId: 0n, body: { case: "view", value: { turn: 4 } } });
    expect(pushes).toEqual(["view", "error", "view"]);
    expect(views).toEqual([3]);
  });

  it("passes the view inside a StepResolved to view listeners too", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const pushes: string[] = [];
    const views: number[] = [];
    client.onPush((e) => pushes.push(e.body.case ?? "none"));
    client.onView((v) => views.push(v.turn));
    net.current.serverSend({
      correlationId: 0n,
      body: { case: "stepResolved", value: { gameId: "g", step: 2n, view: { turn: 5 }, next: { gameId: "g", step: 3n } } },
    });
    net.current.serverSend({ correlationId: 0n, body: { case: "seatStatus", value: { gameId: "g", step: 3n } } });
    expect(pushes).toEqual(["stepResolved", "seatStatus"]);
    expect(views).toEqual([5]);
  });

  it("applies a StepResolved's view change to the view it holds from joining, and hands on the whole view", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const joined = client.joinGame("g", "t");
    await Promise.resolve();
    const unit = (id: string, x: number) => ({ id, position: { x, y: 1 } });
    net.current.serverSend({
      correlationId: net.current.last().correlationId,
      body: {
        case: "joined",
        value: { gameId: "g", seat: "fr/w0", view: { turn: 1, terrain: [{ id: "wood" }], units: [unit("a", 1), unit("b", 2), unit("c", 3)] } },
      },
    });
    await joined;
    const views: string[][] = [];
    const resolved: string[][] = [];
    client.onView((v) => views.push(v.units.map((u) => `${u.id}@${u.position?.x}`).concat(v.terrain.map((t) => t.id))));
    client.onPush((e) => {
      if (e.body.case === "stepResolved") resolved.push(e.body.value.view?.units.map((u) => u.id) ?? []);
    });
    // b moved, c gone, d new at the front.
    net.current.serverSend({
      correlationId: 0n,
      body: {
        case: "stepResolved",
        value: {
          gameId: "g",
          step: 1n,
          view: { turn: 1, units: [unit("d", 9), unit("b", 2.5)] },
          change: { unitIndex: [0, 2], unitsGone: ["c"] },
        },
      },
    });
    expect(views).toEqual([["d@9", "a@1", "b@2.5", "wood"]]);
    expect(resolved).toEqual([["d", "a", "b"]]);
    // The next change applies to that view.
    net.current.serverSend({
      correlationId: 0n,
      body: { case: "stepResolved", value: { gameId: "g", step: 2n, view: { turn: 2 }, change: { unitsGone: ["a"] } } },
    });
    expect(views[1]).toEqual(["d@9", "b@2.5", "wood"]);
  });

  it("reconnects for a whole view when a view change does not fit the view it holds", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const views: number[] = [];
    client.onView((v) => views.push(v.turn));
    // No whole view yet: nothing to apply a change to.
    net.current.serverSend({
      correlationId: 0n,
      body: { case: "stepResolved", value: { gameId: "g", step: 1n, view: { turn: 2 }, change: { unitsGone: ["x"] } } },
    });
    expect(views).toEqual([]);
    expect(net.current.closedByClient?.code).toBe(4001);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it("ignores replies for unknown correlation ids and undecodable frames", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    net.current.serverSend({ correlationId: 999n, body: { case: "gameList", value: {} } });
    net.current.onmessage?.({ data: new Uint8Array([0xff, 0xff, 0xff]).buffer } as MessageEvent);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
    expect(client.state).toBe("open");
  });
});

describe("GalloperClient reconnect", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("fails pending requests when the socket drops, reconnects with backoff and redoes Hello", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const reconnected = vi.fn();
    client.onReconnected(reconnected);

    const p = client.listGames();
    await Promise.resolve();
    const check = expect(p).rejects.toMatchObject({ local: true });
    net.current.serverDrop(1006, "server restarted");
    await check;
    expect(client.state).toBe("reconnecting");
    expect(net.sockets.length).toBe(1);

    // First retry after initialMs (jitter pinned to the ceiling); it fails too.
    await vi.advanceTimersByTimeAsync(100);
    expect(net.sockets.length).toBe(2);
    net.current.serverDrop();
    await vi.advanceTimersByTimeAsync(199);
    expect(net.sockets.length).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(net.sockets.length).toBe(3);

    // A request made while reconnecting waits for the new handshake.
    const later = client.listGames();
    net.current.serverAccept();
    expect(net.current.last().body.case).toBe("hello");
    net.current.welcome();
    await vi.advanceTimersByTimeAsync(0);
    expect(client.state).toBe("open");
    expect(reconnected).toHaveBeenCalledTimes(1);
    const req = net.current.last();
    expect(req.body.case).toBe("listGames");
    net.current.serverSend({ correlationId: req.correlationId, body: { case: "gameList", value: {} } });
    await expect(later).resolves.toBeDefined();
  });

  it("over the server's connection cap: shows its reason, does not retry by itself, retries when asked", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    const states: ConnectionState[] = [];
    client.onState((s) => states.push(s));
    const reconnected = vi.fn();
    client.onReconnected(reconnected);
    const reason = "too many connections from your address (at most 4); close some and retry";

    // The handshake is accepted and the socket closed at once with 1013.
    const first = client.connect();
    const check = expect(first).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, message: reason });
    net.current.serverAccept();
    expect(net.current.last().body.case).toBe("hello");
    net.current.serverDrop(1013, reason);
    await check;
    expect(client.state).toBe("refused");
    expect(client.refusal).toBe(reason);
    expect(states).toEqual(["connecting", "refused"]);
    // Requests fail at once with the reason instead of waiting.
    await expect(client.listGames()).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, message: reason });
    // No retry loop.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(net.sockets.length).toBe(1);

    // Retry: a new connection; once it opens, pages join again.
    const again = client.retry();
    expect(net.sockets.length).toBe(2);
    net.current.serverAccept();
    net.current.welcome();
    await again;
    expect(client.state).toBe("open");
    expect(client.refusal).toBe("");
    expect(reconnected).toHaveBeenCalledTimes(1);

    // A refusal after a drop (reconnecting) also stops the retries.
    net.current.serverDrop(1006, "gone");
    await vi.advanceTimersByTimeAsync(100);
    expect(net.sockets.length).toBe(3);
    net.current.serverAccept();
    net.current.serverDrop(1013, reason);
    expect(client.state).toBe("refused");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(net.sockets.length).toBe(3);
  });

  it("does not reconnect after close()", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    client.close();
    expect(client.state).toBe("closed");
    expect(net.sockets[0]!.closedByClient?.code).toBe(1000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(net.sockets.length).toBe(1);
    await expect(client.listGames()).rejects.toBeInstanceOf(GalloperError);
  });
});

describe("GalloperClient game requests", () => {
  it("re-joins with the resume token and the last sequence; EventsSince comes as a push", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const pushes: string[] = [];
    client.onPush((e) => pushes.push(e.body.case ?? ""));
    const p = client.joinGame("g1", "resume-tok", 42n, 7n);
    const req = net.current.last();
    expect(req.body.case).toBe("joinGame");
    if (req.body.case !== "joinGame") return;
    expect(req.body.value).toMatchObject({ gameId: "g1", token: "resume-tok", lastSequence: 42n, fullHistory: false, lastChatSequence: 7n });
    net.current.serverSend({ correlationId: req.correlationId, body: { case: "joined", value: { gameId: "g1", seat: "red/army", resumeToken: "next" } } });
    // What the seat missed, in pages: `more` on all but the last.
    net.current.serverSend({ correlationId: 0n, body: { case: "eventsSince", value: { gameId: "g1", events: [{ sequence: 43n }], chat: [{ sequence: 8n }], more: true } } });
    net.current.serverSend({ correlationId: 0n, body: { case: "eventsSince", value: { gameId: "g1", events: [{ sequence: 44n }] } } });
    await expect(p).resolves.toMatchObject({ resumeToken: "next" });
    expect(pushes).toEqual(["eventsSince", "eventsSince"]);

    // A first join asks for the whole history and every chat message.
    void client.joinGame("g1", "invite").catch(() => {});
    const first = net.current.last();
    expect(first.body.case === "joinGame" && first.body.value).toMatchObject({ lastSequence: 0n, fullHistory: true, lastChatSequence: 0n });
  });

  it("sends umpire actions with their reason, and shows the server's refusal as sent", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    const p = client.umpireAction("g1", "lunch", { case: "forceResolve", value: {} });
    const req = net.current.last();
    expect(req.body.case).toBe("umpireAction");
    if (req.body.case !== "umpireAction") return;
    expect(req.body.value.reason).toBe("lunch");
    expect(req.body.value.action.case).toBe("forceResolve");
    net.current.serverSend({
      correlationId: req.correlationId,
      body: { case: "error", value: { code: ErrorCode.PERMISSION_DENIED, message: "only the umpire may force_resolve; you hold red/army" } },
    });
    const err = await p.catch((e: GalloperError) => e);
    expect(err).toBeInstanceOf(GalloperError);
    expect((err as GalloperError).describe()).toBe("PERMISSION_DENIED: only the umpire may force_resolve; you hold red/army");
  });

  it("creates a game with settings, chats and lists the audit trail", async () => {
    const net = new FakeNetwork();
    const client = makeClient(net);
    await connected(net, client);
    void client.createGame("demo", "t", { stepDeadlineSeconds: 60, maxPlayerPauses: 2 }).catch(() => {});
    let req = net.current.last();
    expect(req.body.case === "createGame" && req.body.value.settings?.stepDeadlineSeconds).toBe(60);
    void client.sendChat("g1", 3, "psst", "red/army").catch(() => {});
    req = net.current.last();
    expect(req.body.case === "sendChat" && [req.body.value.channel, req.body.value.toSeat]).toEqual([3, "red/army"]);
    const audit = client.listAudit("g1");
    req = net.current.last();
    expect(req.body.case).toBe("listAudit");
    net.current.serverSend({
      correlationId: req.correlationId,
      body: { case: "auditTrail", value: { entries: [{ seat: "umpire", action: "pause", reason: "tea", step: 3n }] } },
    });
    await expect(audit).resolves.toMatchObject({ entries: [{ action: "pause", reason: "tea" }] });
    client.close();
  });
});

describe("helpers", () => {
  it("backoff grows, is capped, and keeps at least half the ceiling", () => {
    const hi = { ...noJitter, random: () => 1 };
    const lo = { ...noJitter, random: () => 0 };
    expect([0, 1, 2, 3, 4, 10].map((a) => backoffDelay(a, hi))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(0, lo)).toBe(50);
    expect(backoffDelay(10, lo)).toBe(500);
  });

  it("builds the socket URL next to the page", () => {
    expect(socketUrlFor({ protocol: "http:", host: "127.0.0.1:8080" })).toBe("ws://127.0.0.1:8080/ws");
    expect(socketUrlFor({ protocol: "https:", host: "galloper.example" })).toBe("wss://galloper.example/ws");
    // A table connects for its game, so a proxy can route by the game id.
    expect(socketUrlFor({ protocol: "http:", host: "127.0.0.1:8080" }, "g-42")).toBe("ws://127.0.0.1:8080/ws/games/g-42");
    expect(socketUrlFor({ protocol: "https:", host: "galloper.example" }, "a b/c")).toBe("wss://galloper.example/ws/games/a%20b%2Fc");
  });
});
