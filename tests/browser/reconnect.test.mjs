// Browser test against the real `galloper serve`: a player's socket drops
// (closed from the page, new connections refused for a while) and the game
// moves on without it: the umpire forces a step (events with dice) and
// writes in the chat. When the page gets through again it re-joins with its
// resume token and last sequence, and must show every event and message
// exactly once — the same events as a page of the same seat that never lost
// its connection.
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { createDemoGame, env, onePerSide, openTable, startHarness, umpireAct } from "./harness.mjs";

let harness;
before(async () => {
  harness = await startHarness("reconnect");
});
after(async () => {
  await harness?.stop();
});

// In the page before any script: remember every WebSocket, and while
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

// What a page shows and holds: events by sequence, chat by sequence.
const logOf = (page) =>
  page.evaluate(() => ({
    dom: [...document.querySelectorAll('[data-testid="event-list"] li.event')].map((e) => e.getAttribute("data-sequence")),
    held: window.galloper.play.events.map((e) => String(e.sequence)),
    dice: window.galloper.play.events.reduce((n, e) => n + e.dice.length, 0),
    chat: [...document.querySelectorAll('[data-testid="chat-list"] li')].map((e) => e.getAttribute("data-sequence")),
    last: String(window.galloper.life.lastSequence),
    step: String(window.galloper.play.step),
  }));

const unique = (xs) => new Set(xs).size === xs.length;

test("a dropped socket reconnects, re-joins from its last sequence and shows nothing twice", async () => {
  const problems = [];
  const { browser, base } = harness;
  const { organiser, invites } = await createDemoGame(browser, base, "Reconnect test", problems);
  const umpireInvite = invites.find((i) => i.seat === "umpire");
  const [redInvite] = onePerSide(invites);
  const umpire = await openTable(browser, umpireInvite, problems, { context: organiser });
  const red = await openTable(browser, redInvite, problems, { initScript: socketHook });
  const witness = await openTable(browser, redInvite, problems); // same seat, never dropped

  // Some history before the drop: a forced step and a chat message.
  let [state, text] = await umpireAct(umpire.page, { action: "forceResolve", reason: "warm-up" });
  assert.equal(state, "done", text);
  await red.page.waitForFunction(() => window.galloper.play.events.length > 0, null, { timeout: 15_000 });
  await umpire.page.locator('[data-testid="chat-text"]').fill("before the drop");
  await umpire.page.locator('[data-testid="chat-send"]').click();
  await red.page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-list"] li').length === 1, null, { timeout: 10_000 });
  const before = await logOf(red.page);
  assert.ok(before.held.length > 0, "events before the drop");

  // --- The drop: close the socket from the page; refuse reconnections for now. ---
  await red.page.evaluate(() => {
    window.__blockSockets = true;
    window.__sockets[window.__sockets.length - 1].close();
  });
  await red.page.locator('.conn[data-state="reconnecting"]').waitFor({ timeout: 10_000 });

  // The game moves on meanwhile: two forced steps, a chat message.
  for (const reason of ["the red player dropped out", "still gone"]) {
    const stepBefore = await umpire.page.evaluate(() => String(window.galloper.play.step));
    [state, text] = await umpireAct(umpire.page, { action: "forceResolve", reason });
    if (state !== "done") {
      console.log(`note: force resolve refused at step ${stepBefore}: ${text}`);
      break;
    }
    await umpire.page.waitForFunction((s) => String(window.galloper.play.step) !== s, stepBefore, { timeout: 15_000 });
  }
  await umpire.page.locator('[data-testid="chat-text"]').fill("while you were away");
  await umpire.page.locator('[data-testid="chat-send"]').click();
  await witness.page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-list"] li').length === 2, null, { timeout: 10_000 });
  const missed = await logOf(witness.page);
  assert.ok(missed.held.length > before.held.length, "the witness page saw new events while red was away");
  const stillBefore = await logOf(red.page);
  assert.deepEqual(stillBefore.held, before.held, "the dropped page got nothing while away");
  await red.page.screenshot({ path: path.join(env.artifacts, "reconnect-away.png") });

  // --- Let it through: backoff retries, Hello, re-join with resume token and last sequence. ---
  await red.page.evaluate(() => (window.__blockSockets = false));
  await red.page.locator('.conn[data-state="open"]').waitFor({ timeout: 30_000 });
  await red.page.waitForFunction((n) => window.galloper.play.events.length >= n && !window.galloper.life.syncing, missed.held.length, {
    timeout: 15_000,
  });
  await red.page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-list"] li').length >= 2, null, { timeout: 10_000 });
  const afterLog = await logOf(red.page);
  const witnessLog = await logOf(witness.page);

  assert.ok(unique(afterLog.dom), `no event shown twice: ${afterLog.dom.join(",")}`);
  assert.deepEqual(afterLog.dom, afterLog.held, "the log shows exactly the events held");
  assert.deepEqual(afterLog.held, witnessLog.held, "the same events as the page that never dropped");
  assert.equal(afterLog.dice, witnessLog.dice, "the same dice");
  assert.ok(unique(afterLog.chat), `no chat message twice: ${afterLog.chat.join(",")}`);
  assert.deepEqual(
    await red.page.locator('[data-testid="chat-list"] .chat-text').allInnerTexts(),
    ["before the drop", "while you were away"],
    "chat: the message before and the one missed, once each",
  );
  assert.equal(afterLog.step, witnessLog.step, "back at the open step");
  assert.equal(afterLog.last, witnessLog.last, "the same last sequence as the witness");

  // It re-joined with the resume token and the last sequence it had.
  const joins = await red.page.evaluate(() => window.__sockets.length);
  assert.ok(joins >= 2, `a new socket was opened (${joins})`);
  await red.page.screenshot({ path: path.join(env.artifacts, "reconnect-back.png") });

  // Still playing: a step resolved now reaches it as before.
  [state, text] = await umpireAct(umpire.page, { action: "forceResolve", reason: "after the reconnect" });
  if (state === "done") {
    await red.page.waitForFunction((n) => window.galloper.play.events.length > n, afterLog.held.length, { timeout: 15_000 }).catch(() => {});
    const final = await logOf(red.page);
    assert.ok(unique(final.dom), "still no duplicates");
  }

  assert.deepEqual(problems.filter((p) => !/WebSocket connection to 'ws:\/\/127\.0\.0\.1:9\/ws' failed/.test(p)), [], "no page errors or console errors");
  for (const p of [red, witness]) await p.context.close();
  await organiser.close();
});

test("the server restarts: pages reconnect, re-join and carry on with nothing twice", async () => {
  const problems = [];
  const { browser, base, restartServer } = harness;
  const { organiser, invites } = await createDemoGame(browser, base, "Restart test", problems);
  const umpireInvite = invites.find((i) => i.seat === "umpire");
  const [redInvite] = onePerSide(invites);
  const umpire = await openTable(browser, umpireInvite, problems, { context: organiser });
  const red = await openTable(browser, redInvite, problems);

  let [state, text] = await umpireAct(umpire.page, { action: "forceResolve", reason: "before the restart" });
  assert.equal(state, "done", text);
  await red.page.waitForFunction(() => window.galloper.play.events.length > 0, null, { timeout: 15_000 });
  await red.page.locator('[data-testid="chat-text"]').fill("see you after the restart");
  await red.page.locator('[data-testid="chat-send"]').click();
  await umpire.page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-list"] li').length === 1, null, { timeout: 10_000 });
  const before = await logOf(red.page);

  await restartServer(async () => {
    for (const p of [umpire, red]) await p.page.locator('.conn[data-state="reconnecting"]').waitFor({ timeout: 10_000 });
  });
  for (const p of [umpire, red]) {
    await p.page.locator('.conn[data-state="open"]').waitFor({ timeout: 30_000 });
    await p.page.waitForFunction(() => !window.galloper.life.syncing && window.galloper.play.step !== null, null, { timeout: 15_000 });
  }
  const after = await logOf(red.page);
  assert.deepEqual(after.held, before.held, "the same events after the restart, none twice");
  assert.deepEqual(after.dom, after.held, "the log shows them once");
  assert.deepEqual(after.chat, before.chat, "the same chat, none twice");
  assert.equal(await red.page.locator('[data-field="seat"]').innerText().then((t) => t.includes(redInvite.seat)), true, "the same seat");
  assert.equal(await red.page.locator('[role="alert"].error-box:not([hidden])').count(), 0, "no rejoin error shown");

  // Play goes on with the restarted server.
  [state, text] = await umpireAct(umpire.page, { action: "forceResolve", reason: "after the restart" });
  assert.equal(state, "done", text);
  await red.page.waitForFunction((n) => window.galloper.play.events.length > n, after.held.length, { timeout: 15_000 });
  const final = await logOf(red.page);
  assert.ok(unique(final.dom), `no duplicates: ${final.dom.join(",")}`);
  assert.deepEqual(final.dom, final.held);

  const unexpected = problems.filter((p) => !/WebSocket connection to .* failed|ERR_CONNECTION_REFUSED/.test(p));
  assert.deepEqual(unexpected, [], "no page errors or console errors (other than the refused connections while down)");
  await red.context.close();
  await organiser.close();
});
