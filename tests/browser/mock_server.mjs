#!/usr/bin/env node
// A stand-in for `galloper serve`, for working on the web client by hand
// while the real server is not at hand. NOT used by CTest: the browser tests
// run the real binary. It speaks the same protocol (binary and JSON frames)
// and takes the same command line:
//   node tests/browser/mock_server.mjs serve --listen 127.0.0.1:PORT --static-dir DIST [--data DIR]
// It decides nothing like the rules engine would: the views are canned, and so
// is play (a few decisions at step 1, a canned refusal for a move longer than
// its allowance, canned events with dice when every owing seat has locked).
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { randomBytes } from "node:crypto";

const here = path.dirname(fileURLToPath(import.meta.url));
const webDir = process.env.GALLOPER_WEB_DIR ?? path.resolve(here, "../../clients/web");
const require = createRequire(path.join(webDir, "package.json"));
const { WebSocketServer } = require("ws");
const pb = await import(pathToFileURL(require.resolve("@bufbuild/protobuf")).href);
const gen = (f) => import(pathToFileURL(path.join(webDir, "node_modules/.galloper-gen/galloper/v1", f)).href);
const { EnvelopeSchema, ErrorCode, SeatRole } = await gen("protocol_pb.js");
const { TerrainKind, UnitKind, Knowledge } = await gen("game_pb.js");

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const listen = arg("--listen", "127.0.0.1:8080");
const staticDir = path.resolve(arg("--static-dir", path.join(webDir, "dist")));
const [host, portText] = listen.split(":");

// ---- canned game data ----
const SEATS = [
  ["umpire", "The umpire: sees everything, can force and undo"],
  ["red/army", "French army commander (Marshal)"],
  ["red/wing-left", "French left wing"],
  ["red/wing-right", "French right wing"],
  ["blue/army", "Allied army commander"],
  ["blue/wing-left", "Allied left wing"],
  ["blue/wing-right", "Allied right wing"],
];
const games = new Map(); // id -> {title, tokens: Map(token -> seat), created}

const P = (x, y) => ({ x, y });
const terrain = [
  { id: "h1", kind: TerrainKind.HILL, name: "Windmill Hill", closed: true, elevation: 1, outline: [P(8, 30), P(14, 38), P(24, 39), P(28, 33), P(20, 27)] },
  { id: "h2", kind: TerrainKind.HILL, name: "", closed: true, elevation: 2, steep: true, outline: [P(14, 33), P(17, 36), P(22, 35), P(21, 31)] },
  { id: "w1", kind: TerrainKind.WOOD, name: "Bois de Taviers", closed: true, outline: [P(50, 8), P(56, 6), P(62, 10), P(58, 16), P(51, 14)] },
  { id: "t1", kind: TerrainKind.TOWN, name: "Ramillies", closed: true, outline: [P(34, 22), P(40, 22), P(40, 27), P(34, 27)] },
  { id: "m1", kind: TerrainKind.MARSH, name: "", closed: true, outline: [P(60, 30), P(68, 28), P(70, 36), P(62, 38)] },
  { id: "r1", kind: TerrainKind.ROUGH, name: "", closed: true, outline: [P(4, 4), P(12, 3), P(13, 9), P(5, 10)] },
  { id: "riv", kind: TerrainKind.RIVER, name: "Petite Gheete", major: true, outline: [P(0, 20), P(10, 19), P(20, 21), P(30, 18), P(44, 17), P(58, 20), P(72, 19)] },
  { id: "s1", kind: TerrainKind.STREAM, name: "", outline: [P(44, 17), P(47, 10), P(46, 0)] },
  { id: "road", kind: TerrainKind.ROAD, name: "", outline: [P(37, 0), P(37, 22), P(37, 27), P(45, 48)] },
  { id: "br", kind: TerrainKind.BRIDGE, name: "", outline: [P(37, 17.5)] },
  { id: "fd", kind: TerrainKind.FORD, name: "", outline: [P(58, 20)] },
  { id: "hg", kind: TerrainKind.HEDGE, name: "", outline: [P(24, 8), P(30, 9), P(33, 13)] },
  { id: "wl", kind: TerrainKind.WALL, name: "", outline: [P(33.5, 21.5), P(40.5, 21.5)] },
  { id: "dt", kind: TerrainKind.DITCH, name: "", outline: [P(10, 12), P(18, 12)] },
  { id: "fw", kind: TerrainKind.FIELDWORKS, name: "", outline: [P(26, 40), P(32, 41), P(36, 39)] },
  { id: "ft", kind: TerrainKind.FORTIFICATION, name: "", outline: [P(48, 40), P(52, 43), P(56, 40)] },
];

// A brigade of n bases in line, front edge centred on (x, y).
function brigade(id, name, side, knowledge, x, y, facing, n, extra = {}) {
  const w = 2.4, d = 1.2;
  const rad = (facing * Math.PI) / 180;
  const f = { x: Math.sin(rad), y: Math.cos(rad) }, r = { x: Math.cos(rad), y: -Math.sin(rad) };
  const bases = [];
  for (let i = 0; i < n; i++) {
    const along = (i - (n - 1) / 2) * w;
    bases.push({ center: { x: x + r.x * along - f.x * d / 2, y: y + r.y * along - f.y * d / 2 }, width: w, depth: d, facingDeg: facing });
  }
  return { id, kind: UnitKind.BRIGADE, side, name, knowledge, troopType: "foot", grade: "C", formation: "line",
    bases, baseCount: n, position: P(x, y), facingDeg: facing, dps: 0, status: [], ...extra };
}

function unitsFor(seat) {
  const [side, role] = seat.split("/");
  const mine = (s, wing) => seat === "umpire" ? Knowledge.UMPIRE : s !== side ? Knowledge.SEEN : role === wing || role === "army" ? Knowledge.OWN : Knowledge.FRIENDLY;
  const u = [
    brigade("fr-1", "Régiment de Picardie", "red", mine("red", "wing-left"), 16, 26, 180, 4, { wing: "wing-left", command: "c1", grade: "B" }),
    brigade("fr-2", "Régiment de Navarre", "red", mine("red", "wing-left"), 26, 26, 180, 4, { wing: "wing-left", command: "c1", dps: 2, status: ["halted"] }),
    brigade("fr-3", "Maison du Roi", "red", mine("red", "wing-right"), 52, 28, 180, 3, { wing: "wing-right", command: "c2", troopType: "horse", grade: "A" }),
    { id: "fr-g1", kind: UnitKind.GUN, side: "red", name: "Batterie de Ramillies", knowledge: mine("red", "wing-left"), troopType: "medium gun",
      bases: [{ center: P(31, 29), width: 1.6, depth: 1.6, facingDeg: 200 }], position: P(31, 29), facingDeg: 200, status: ["limbered"], wing: "wing-left" },
    { id: "fr-l1", kind: UnitKind.LEADER, side: "red", name: "Villeroi", knowledge: mine("red", "army"), rank: "marshal",
      bases: [{ center: P(37, 32), width: 0.8, depth: 0.8, facingDeg: 180 }], position: P(37, 32), facingDeg: 180 },
    { id: "fr-l2", kind: UnitKind.LEADER, side: "red", name: "d'Arco", knowledge: mine("red", "wing-left"), rank: "lieutenant general",
      attachedTo: "fr-1", bases: [{ center: P(16, 28.5), width: 0.8, depth: 0.8, facingDeg: 180 }], position: P(16, 28.5), facingDeg: 180, wing: "wing-left" },
  ];
  const blueSeen = seat === "umpire" ? Knowledge.UMPIRE : side === "blue" ? mine("blue", "wing-left") : Knowledge.SEEN;
  u.push(
    brigade("al-1", "Orkney's Foot", "blue", blueSeen, 20, 12, 0, 4, { wing: "wing-left", dps: 1 }),
    brigade("al-2", "Dutch Guards", "blue", side === "red" ? Knowledge.LAST_SEEN : blueSeen, 52, 4, 20, 4, side === "red" ? { lastSeenTurn: 1, grade: "" } : {}),
  );
  return u;
}

// What the real server sends of Malbrook (RulesetInfo), cut to what the
// page's panels read.
const RULESET = {
  name: "malbrook", title: "Malbrook s'en va-t-en guerre", unitName: "inch", unitPlural: "inches", scale: "1 inch = about 60 paces",
  stepActions: [
    { key: "forward", label: "Forward", fields: ["distance", "angle_deg"] },
    { key: "wheel", label: "Wheel", fields: ["pivot", "angle_deg"] },
    { key: "formation", label: "Change formation", fields: ["formation", "angle_deg"] },
    { key: "move_to", label: "Move to", fields: ["to"] },
    { key: "attach", label: "Attach to", fields: ["target"] },
    { key: "objective", label: "Objective", fields: ["to"] },
  ],
  orders: [
    { decisionKind: "move", actions: ["forward", "wheel", "formation"] },
    { decisionKind: "command_actions", actions: ["move_to", "attach"] },
    { decisionKind: "move_dice", actions: ["objective"] },
  ],
  formations: [{ key: "line", label: "Line" }, { key: "march column", label: "March column" }],
  editKinds: [{ kind: "move", label: "Move a unit or leader", fields: ["x", "y", "facing"] }],
};

function viewFor(gameId, seat) {
  const g = games.get(gameId);
  const side = seat.includes("/") ? seat.split("/")[0] : "";
  return {
    gameId, ruleset: "malbrook", scenario: "demo", title: g.title, seat, side,
    tableWidth: 72, tableDepth: 48, unitName: "inch", turn: 2, phase: "command", turnLimit: 12,
    sides: [{ id: "red", name: "French", attacker: false }, { id: "blue", name: "Allies", attacker: true }],
    terrain, units: unitsFor(seat), seedCommitment: g.commitment, sequence: 7n,
  };
}

// ---- canned play ----
const moveDecision = (unit, name, seat, allowance) => ({
  id: `move/${unit}`, seat, kind: "move", subjects: [unit], prompt: `Order for ${name}: ${allowance}" (one die rolled).`,
  defaultOption: "halt", limits: [{ name: "allowance", value: allowance }, { name: "double", value: 0 }],
});
function decisionsAt(step) {
  if (step !== 1n) return [];
  return [
    { id: "initiative", seat: "red/army", kind: "initiative_order", subjects: [], prompt: "You won the initiative: move first or second this turn?",
      options: [{ id: "first", label: "Go first" }, { id: "second", label: "Go second" }], defaultOption: "" },
    { id: "command/fr-l2", seat: "red/wing-left", kind: "command_actions", subjects: ["fr-l2"],
      prompt: "d'Arco: choose up to 2 command actions (move/attach/detach, steady, inspire, listen).",
      options: [{ id: "none", label: "No actions" }], defaultOption: "none", limits: [{ name: "actions", value: 2 }, { name: "move", value: 6 }] },
    moveDecision("fr-1", "Régiment de Picardie", "red/wing-left", 4.5),
    moveDecision("fr-2", "Régiment de Navarre", "red/wing-left", 3),
    moveDecision("al-1", "Orkney's Foot", "blue/wing-left", 5),
  ];
}
const play = new Map(); // game id -> {step, answers: Map(decision id -> answer), locked: Set(seat), seq}
const conns = new Map(); // ws -> {gameId, seat}
function playOf(id) {
  if (!play.has(id)) play.set(id, { step: 1n, answers: new Map(), locked: new Set(), seq: 7n });
  return play.get(id);
}
function owed(gameId, seat) {
  const p = playOf(gameId);
  const ds = decisionsAt(p.step).filter((d) => d.seat === seat);
  return { gameId, step: p.step, decisions: ds, answers: ds.map((d) => p.answers.get(d.id)).filter(Boolean), locked: p.locked.has(seat) };
}
function status(gameId) {
  const p = playOf(gameId);
  const owing = [...new Set(decisionsAt(p.step).map((d) => d.seat))];
  return { gameId, step: p.step, owing, locked: owing.filter((s) => p.locked.has(s)) };
}
function push(ws, body) {
  const msg = pb.create(EnvelopeSchema, { correlationId: 0n, body });
  ws.send(pb.toBinary(EnvelopeSchema, msg), { binary: true });
}
function broadcast(gameId, bodyFor) {
  for (const [ws, c] of conns) if (c.gameId === gameId) push(ws, bodyFor(c.seat));
}
function resolveStep(gameId) {
  const p = playOf(gameId);
  const step = p.step;
  const ev = (kind, text, extra = {}) => ({ sequence: ++p.seq, kind, text, step, turn: 2, phase: "command", ...extra });
  const events = [
    ev("initiative", "The French go " + (p.answers.get("initiative")?.option === "second" ? "second" : "first") + ".", { isPublic: true }),
    ev("control_test", "Régiment de Picardie passes its control test (rolled 5, needed 4).", { subjects: ["fr-1"], dice: [{ kind: "d6", face: 5, draw: 1, sides: 6 }] }),
    ev("moved", "Orkney's Foot advances 3.5\".", { subjects: ["al-1"], dice: [{ kind: "average", face: 3, draw: 2, sides: 6 }, { kind: "average", face: 4, draw: 3, sides: 6 }] }),
    ev("phase", "Turn 2: movement phase.", { isPublic: true, dice: [{ kind: "d12", face: 11, draw: 4, sides: 12 }] }),
  ];
  p.step += 1n;
  p.answers.clear();
  p.locked.clear();
  for (const [ws, c] of conns) {
    if (c.gameId !== gameId) continue;
    const mine = events.filter((e) => e.isPublic || c.seat === "umpire" || e.subjects?.some((id) => unitsFor(c.seat).some((u) => u.id === id)));
    push(ws, { case: "stepResolved", value: { gameId, step, events: mine, view: viewFor(gameId, c.seat), next: owed(gameId, c.seat) } });
  }
  broadcast(gameId, () => ({ case: "seatStatus", value: status(gameId) }));
}

function handle(env, ws) {
  const body = env.body;
  const reply = (b) => ({ correlationId: env.correlationId, body: b });
  const error = (code, message, context = {}) => reply({ case: "error", value: { code, message, context } });
  switch (body.case) {
    case "hello":
      return reply({ case: "welcome", value: { serverVersion: "mock-0", protocol: { major: 1, minor: 0 } } });
    case "listScenarios":
      return reply({ case: "scenarioList", value: { scenarios: [
        { name: "malbrook/demo", title: "Demo: a small Malbrook battle", ruleset: "malbrook", rulesetInfo: RULESET, description: "Two small armies around a river town.",
          seats: SEATS.map(([id, description]) => ({
            id, description, side: id === "umpire" ? "" : id.split("/")[0],
            role: id === "umpire" ? SeatRole.UMPIRE : id.endsWith("/army") ? SeatRole.ARMY : SeatRole.WING })) } ] } });
    case "listGames":
      return reply({ case: "gameList", value: { games: [...games.entries()].map(([id, g]) => ({
        gameId: id, title: g.title, scenario: "demo", ruleset: "malbrook", turn: 2, phase: "command", createdUnix: BigInt(g.created) })) } });
    case "createGame": {
      if (body.value.source.case !== "scenarioName" || !["demo", "malbrook/demo"].includes(body.value.source.value)) {
        return error(ErrorCode.NOT_FOUND, "no such scenario", { scenario: String(body.value.source.value ?? "") });
      }
      const id = randomBytes(6).toString("hex");
      const tokens = new Map();
      const invites = SEATS.map(([seat, description]) => {
        const token = randomBytes(12).toString("base64url");
        tokens.set(token, seat);
        return { seat, description, token };
      });
      const commitment = randomBytes(32).toString("hex");
      games.set(id, { title: body.value.title, tokens, created: Math.floor(Date.now() / 1000), commitment });
      return reply({ case: "gameCreated", value: { gameId: id, invites, seedCommitment: commitment } });
    }
    case "joinGame": {
      const g = games.get(body.value.gameId);
      if (!g) return error(ErrorCode.NOT_FOUND, "no such game", { game_id: body.value.gameId });
      const seat = g.tokens.get(body.value.token);
      if (!seat) return error(ErrorCode.BAD_TOKEN, "token not recognised", { game_id: body.value.gameId });
      const resume = randomBytes(12).toString("base64url");
      g.tokens.set(resume, seat);
      conns.set(ws, { gameId: body.value.gameId, seat });
      // The pushes follow the reply.
      setTimeout(() => {
        push(ws, { case: "decisions", value: owed(body.value.gameId, seat) });
        push(ws, { case: "seatStatus", value: status(body.value.gameId) });
      }, 0);
      return reply({ case: "joined", value: { gameId: body.value.gameId, seat, resumeToken: resume, view: viewFor(body.value.gameId, seat), ruleset: RULESET } });
    }
    case "submitAnswer": {
      const c = conns.get(ws);
      if (!c || c.gameId !== body.value.gameId) return error(ErrorCode.PERMISSION_DENIED, "join the game first");
      const p = playOf(c.gameId);
      if (body.value.step !== p.step) return error(ErrorCode.INVALID_ARGUMENT, `step ${body.value.step} is not open; the current step is ${p.step}`);
      if (p.locked.has(c.seat)) return error(ErrorCode.INVALID_ARGUMENT, `seat ${c.seat} has locked its answers for this step`);
      const a = body.value.answer;
      const d = decisionsAt(p.step).find((x) => x.id === a?.decisionId);
      if (!d) return error(ErrorCode.INVALID_ARGUMENT, `there is no decision '${a?.decisionId}' at this step`);
      if (d.seat !== c.seat) return error(ErrorCode.PERMISSION_DENIED, `decision '${d.id}' is owed by seat ${d.seat}`);
      const allowance = d.limits?.find((l) => l.name === "allowance")?.value;
      const far = a.steps.reduce((t, st) => t + (st.action === "forward" ? st.distance : 0), 0);
      if (allowance !== undefined && far > allowance + 1e-9) {
        return error(ErrorCode.ILLEGAL_ANSWER, `${d.prompt.split(":")[0].replace("Order for ", "")} may move ${allowance}", not ${far}".`, { rule: "too_far", decision_id: d.id });
      }
      if (d.options?.length && !a.steps.length && !d.options.some((o) => o.id === a.option)) {
        return error(ErrorCode.ILLEGAL_ANSWER, `"${a.option}" is not an option for ${d.id}.`, { rule: "bad_option", decision_id: d.id });
      }
      p.answers.set(d.id, a);
      return reply({ case: "answerAccepted", value: { decisionId: d.id } });
    }
    case "lockAnswers": {
      const c = conns.get(ws);
      if (!c) return error(ErrorCode.PERMISSION_DENIED, "join the game first");
      const p = playOf(c.gameId);
      const mine = decisionsAt(p.step).filter((d) => d.seat === c.seat);
      if (!mine.length) return error(ErrorCode.INVALID_ARGUMENT, `seat ${c.seat} owes nothing at this step`);
      const missing = mine.find((d) => !p.answers.has(d.id) && !d.defaultOption);
      if (missing) return error(ErrorCode.INVALID_ARGUMENT, `decision '${missing.id}' (${missing.prompt}) has no default: answer it before locking`);
      const defaulted = mine.filter((d) => !p.answers.has(d.id)).map((d) => d.id);
      for (const id of defaulted) p.answers.set(id, { decisionId: id, option: mine.find((d) => d.id === id).defaultOption, steps: [] });
      p.locked.add(c.seat);
      setTimeout(() => {
        broadcast(c.gameId, () => ({ case: "seatStatus", value: status(c.gameId) }));
        if (status(c.gameId).owing.every((s) => p.locked.has(s))) resolveStep(c.gameId);
      }, 0);
      return reply({ case: "answersLocked", value: { step: p.step, defaulted } });
    }
    default:
      return error(ErrorCode.UNKNOWN_MESSAGE, `unknown message ${body.case}`);
  }
}

const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".map": "application/json", ".svg": "image/svg+xml" };
const server = createServer(async (req, res) => {
  const url = new URL(req.url, "http://x");
  if (url.pathname === "/healthz") return res.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
  const rel = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname).replace(/^\/+/, "");
  const file = path.resolve(staticDir, rel);
  if (!file.startsWith(staticDir + path.sep)) return res.writeHead(403).end();
  try {
    if (!(await stat(file)).isFile()) throw new Error("not a file");
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" }).end(await readFile(file));
  } catch {
    res.writeHead(404).end("not found\n");
  }
});
// /ws, and /ws/games/{id} for a connection of one game (as the server).
const wss = new WebSocketServer({ noServer: true });
server.on("upgrade", (req, socket, head) => {
  const { pathname } = new URL(req.url, "http://x");
  if (pathname !== "/ws" && !/^\/ws\/games\/[^/]+$/.test(pathname)) {
    socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
});
wss.on("connection", (ws) => {
  ws.on("close", () => conns.delete(ws));
  ws.on("message", (data, isBinary) => {
    let env;
    try {
      env = isBinary ? pb.fromBinary(EnvelopeSchema, new Uint8Array(data)) : pb.fromJsonString(EnvelopeSchema, data.toString());
    } catch (e) {
      env = null;
    }
    const out = env ? handle(env, ws) : { correlationId: 0n, body: { case: "error", value: { code: ErrorCode.MALFORMED_FRAME, message: "bad frame" } } };
    const msg = pb.create(EnvelopeSchema, out);
    ws.send(isBinary ? pb.toBinary(EnvelopeSchema, msg) : pb.toJsonString(EnvelopeSchema, msg), { binary: isBinary });
  });
});
server.listen(Number(portText), host, () => console.log(`mock galloper listening on http://${listen}/ (static ${staticDir})`));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
