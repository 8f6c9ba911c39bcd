// Browser test of where the pages connect, and of the server turning a
// connection away, against the real `galloper serve`.
//
//  * The lobby connects at /ws; a table page at /ws/games/{game id} (so a
//    proxy in front of several servers can route by game), also when the
//    lobby's own page goes to the table through "Join a seat".
//  * Over the server's per-address connection cap (started here with
//    --max-connections-per-ip), the WebSocket handshake is accepted and
//    closed at once with code 1013 and a reason. A table page that drops
//    its connection and is turned away like that shows the server's reason
//    with a Retry button and does not retry by itself; once connections are
//    free again, Retry reconnects it and it joins its seat again.
//
// Screenshot: connection-refused.
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import path from "node:path";
import { createDemoGame, env, loopbackOnly, onePerSide, openTable, screenshot, socketPaths, startHarness } from "./harness.mjs";

const CAP = 8;
let harness;
before(async () => {
  harness = await startHarness("connections", { serverArgs: ["--max-connections-per-ip", String(CAP)] });
});
after(async () => {
  await harness?.stop();
});

// As reconnect.test.mjs: remember every WebSocket the page opens and, while
// window.__blockSockets is set, point new ones at a closed port.
const socketHook = () => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.__blockSockets = false;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      super(window.__blockSockets ? "ws://127.0.0.1:9/ws" : url, protocols);
      window.__sockets.push(this);
    }
  };
};
const blockedSocket = (p) => /WebSocket connection to 'ws:\/\/127\.0\.0\.1:9\/ws' failed/.test(p);

test("the lobby connects at /ws and a table at /ws/games/{id}", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { organiser, invites, gameId } = await createDemoGame(browser, base, "Where pages connect", problems);
  const [red] = onePerSide(invites);

  // A fresh page on the lobby, then to the table through "Join a seat".
  const page = await organiser.newPage();
  const paths = socketPaths(page);
  await page.goto(`${base}/`);
  await page.locator('[data-testid="scenario"] option[value="malbrook/demo"]').waitFor({ state: "attached", timeout: 15_000 });
  assert.deepEqual(paths, ["/ws"], "the lobby's connection");
  await page.locator("#join-link").fill(red.url);
  await page.locator(".join-form button[type=submit]").click();
  await page.waitForFunction(() => window.galloper && window.galloper.play.step !== null && !window.galloper.life.syncing, null, { timeout: 15_000 });
  assert.deepEqual(paths, ["/ws", `/ws/games/${gameId}`], "the table's own connection, for its game");
  assert.equal(await page.evaluate(() => window.galloper.seat), red.seat);
  // Back to the lobby: the lobby's connection again.
  await page.locator("a.brand").click();
  await page.locator('[data-testid="scenario"] option[value="malbrook/demo"]').waitFor({ state: "attached", timeout: 15_000 });
  assert.deepEqual(paths, ["/ws", `/ws/games/${gameId}`, "/ws"]);

  // A table opened from its link.
  const ctx = await browser.newContext();
  await loopbackOnly(ctx);
  const table = await ctx.newPage();
  const tablePaths = socketPaths(table);
  await table.goto(red.url);
  await table.waitForFunction(() => window.galloper && window.galloper.play.step !== null, null, { timeout: 15_000 });
  assert.deepEqual(tablePaths, [`/ws/games/${gameId}`]);
  assert.deepEqual(problems, []);
  await ctx.close();
  await organiser.close();
});

test("over the connection cap the page shows the server's reason, does not retry by itself, and retries when asked", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { organiser, invites, gameId } = await createDemoGame(browser, base, "Connection cap", problems);
  const [redInvite] = onePerSide(invites);
  await organiser.close(); // its connections count against the cap
  const red = await openTable(browser, redInvite, problems, { initScript: socketHook });

  // Connections from this process, on the same address, up to the cap.
  const { WebSocket } = createRequire(path.join(env.webDir, "package.json"))("ws");
  const wsUrl = `${base.replace(/^http/, "ws")}/ws`;
  const held = [];
  // One try: "held" (it stays open), or "refused" (closed at once with 1013).
  const attempt = () =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl);
      let timer;
      ws.on("error", reject);
      ws.on("close", (code, reason) => {
        clearTimeout(timer);
        if (code === 1013) resolve({ refused: String(reason) });
        else reject(new Error(`closed with ${code}`));
      });
      ws.on("open", () => {
        timer = setTimeout(() => {
          held.push(ws);
          resolve({ held: true });
        }, 150);
      });
    });
  // Takes every free connection: until one is refused, after at least
  // `atLeast` were taken (a closed connection is freed a moment later).
  const fill = async (atLeast) => {
    const start = held.length;
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await attempt();
      if (r.refused !== undefined) {
        if (held.length - start >= atLeast) return r.refused;
        assert.ok(Date.now() < deadline, `a connection was freed within 10 s (took ${held.length - start})`);
        await new Promise((ok) => setTimeout(ok, 20));
      }
    }
  };
  const reason = await fill(0);
  assert.match(reason, new RegExp(`^too many connections from your address \\(at most ${CAP}\\); close some and retry$`), reason);

  // The page's connection drops; while its reconnects go nowhere, this
  // process takes the connection it freed. Then its reconnect reaches the
  // server, at the cap.
  const before = await red.page.evaluate(() => {
    window.__blockSockets = true;
    window.__sockets[window.__sockets.length - 1].close();
    return window.__sockets.length;
  });
  await fill(1);
  await red.page.evaluate(() => (window.__blockSockets = false));
  const banner = red.page.locator('[data-testid="connection-refused"]');
  await banner.waitFor({ state: "visible", timeout: 30_000 });
  assert.equal(await red.page.locator('[data-testid="connection-refused-reason"]').innerText(), reason, "the server's reason, as sent");
  assert.equal(await red.page.locator(".conn").getAttribute("data-state"), "refused");
  assert.equal(await red.page.locator(".conn").innerText(), "Refused by the server");
  const paths = await red.page.evaluate(() => window.__sockets.map((s) => new URL(s.url).pathname));
  assert.equal(paths[paths.length - 1], `/ws/games/${gameId}`, "the refused connection was the table's");
  await screenshot(red.page, "connection-refused");

  // No retry loop: no new connection while the reason is shown.
  const opened = await red.page.evaluate(() => window.__sockets.length);
  assert.ok(opened > before, "the page tried again after its drop");
  await red.page.waitForTimeout(5_000);
  assert.equal(await red.page.evaluate(() => window.__sockets.length), opened, "no further attempts by itself");
  assert.equal(await banner.isVisible(), true);

  // Connections free again: Retry reconnects, and the page joins its seat again.
  for (const ws of held) ws.close();
  await new Promise((ok) => setTimeout(ok, 300));
  await red.page.evaluate(() => (window.__viewBefore = window.galloper.lastView));
  await red.page.locator('[data-testid="connection-retry"]').click();
  await red.page.locator(".conn[data-state='open']").waitFor({ timeout: 10_000 });
  await banner.waitFor({ state: "hidden", timeout: 5_000 });
  // Joined again: a new view from the join, and its history caught up.
  await red.page.waitForFunction(() => window.galloper.lastView !== window.__viewBefore && !window.galloper.life.syncing, null, { timeout: 10_000 });
  assert.equal(await red.page.evaluate(() => window.galloper.seat), redInvite.seat);
  assert.equal(await red.page.evaluate(() => window.__sockets.length), opened + 1, "one new connection, on Retry");
  assert.deepEqual(problems.filter((p) => !blockedSocket(p)), [], "no page errors or console errors");
  await red.context.close();
});
