// Browser test against the real `galloper serve`: a player's page never holds
// what that player's troops do not see.
//
// A demo game with wing-only vision; one wing of each side is a player's page,
// every other player seat is the bot's, and the umpire forces each step the
// pages owe (their decisions default) for 12 steps. Each page records, from an
// init script, every unit of every view it renders (window.galloper is set on
// each render). After every step the whole document of each page — markup,
// attributes, the event log, the orders panel, tooltips — is searched:
//
//  * the id of an enemy unit the page was never shown must not appear;
//  * the name of any enemy unit must not appear, seen or not: a seen enemy
//    is shown by its kind, not its name (rules/malbrook/RULINGS.md, R21).
//
// What the page was shown is taken from what it rendered, not from the
// server's filter; the names and ids to look for come from the umpire's page,
// which sees everything. Enemy names shorter than five letters are skipped
// (a leader called "Week" would match the English word), as are names that
// are part of a name the page may show.
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createDemoGame, openTable, sideOf, startHarness, umpireAct } from "./harness.mjs";

let harness;
before(async () => {
  harness = await startHarness("hidden_dom");
});
after(async () => {
  await harness?.stop();
});

const STEPS = 12;

// Every unit id the page renders, kept by the page itself.
const RECORD_SHOWN = () => {
  const shown = new Set();
  let current;
  Object.defineProperty(window, "galloper", {
    configurable: true,
    get: () => current,
    set: (g) => {
      current = g;
      for (const u of g?.lastView?.units ?? []) shown.add(u.id);
    },
  });
  window.__shownUnits = () => [...shown];
};

const stepOf = (page) => page.evaluate(() => String(window.galloper?.lastView?.step ?? ""));

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// An id as a whole token: not inside a longer id (ids are [a-z0-9_/-]).
const idPattern = (id) => new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(id)}($|[^A-Za-z0-9_])`);

test("no player's page holds an enemy's name, or the id of an enemy it never saw", async () => {
  const problems = [];
  const { browser, base } = harness;
  const probe = (invites) => {
    const sides = [...new Set(invites.map((i) => sideOf(i.seat)).filter(Boolean))];
    return sides.map((side) => invites.find((i) => sideOf(i.seat) === side && !i.seat.endsWith("/army")));
  };
  // Which seats are probed is known only once the invites are out; the bot
  // plays the rest, chosen in the form from the demo's seats as the lobby lists them.
  const { organiser, invites } = await createDemoGame(browser, base, "Hidden DOM test", problems, {
    vision: "wing_only",
    botSeats: ["allies/army", "allies/right", "french/army", "french/gauche"],
  });
  const pages = probe(invites);
  assert.deepEqual(
    pages.map((p) => p.seat).sort(),
    ["allies/left", "french/droite"],
    `the probed seats are the wings the bot does not play: ${invites.map((i) => i.seat).join(", ")}`,
  );
  const umpire = await openTable(browser, invites.find((i) => i.seat === "umpire"), problems);
  const players = [];
  for (const invite of pages) players.push(await openTable(browser, invite, problems, { initScript: RECORD_SHOWN }));

  // Every unit, with its side and name, as the umpire's page shows it.
  const everything = new Map();
  const learn = async () => {
    const units = await umpire.page.evaluate(() => window.galloper.lastView.units.map((u) => ({ id: u.id, side: u.side, name: u.name })));
    for (const u of units) everything.set(u.id, u);
  };

  const check = async (label) => {
    await learn();
    for (const p of players) {
      const side = sideOf(p.seat);
      const shown = new Set(await p.page.evaluate(() => window.__shownUnits()));
      const friendlyNames = [...everything.values()].filter((u) => u.side === side).map((u) => u.name);
      const html = await p.page.evaluate(() => document.documentElement.outerHTML);
      const text = await p.page.evaluate(() => document.body.innerText);
      for (const u of everything.values()) {
        if (u.side === side || !u.side) continue;
        if (!shown.has(u.id)) {
          assert.doesNotMatch(html, idPattern(u.id), `${label}: ${p.seat}'s page holds the id of ${u.id}, which it was never shown`);
        }
        if (u.name.length < 5 || friendlyNames.some((n) => n.includes(u.name))) continue;
        assert.ok(!html.includes(u.name) && !text.includes(u.name), `${label}: ${p.seat}'s page holds the name of enemy ${u.id}, "${u.name}"`);
      }
    }
  };

  await check("at the start");
  let forced = 0;
  for (let i = 0; i < STEPS; ++i) {
    const before = await stepOf(umpire.page);
    const [state, text] = await umpireAct(umpire.page, { action: "forceResolve", reason: `hidden DOM step ${i + 1}` });
    if (state !== "done") {
      // Nothing to force: the game ended, or the bots moved it on already.
      assert.match(text, /ended|nothing|not/i, text);
      break;
    }
    ++forced;
    for (const p of [umpire, ...players]) {
      await p.page.waitForFunction((b) => String(window.galloper?.lastView?.step ?? "") !== b && !window.galloper.life.syncing, before, {
        timeout: 15_000,
      });
    }
    await check(`after step ${await stepOf(umpire.page)}`);
  }
  assert.ok(forced >= 6, `the umpire forced ${forced} steps`);
  const enemiesSeen = await Promise.all(
    players.map(async (p) => (await p.page.evaluate(() => window.__shownUnits())).filter((id) => everything.has(id) && everything.get(id).side !== sideOf(p.seat)).length),
  );
  console.log(`forced ${forced} steps; enemy units each page was shown: ${enemiesSeen.join(", ")} of ${everything.size} units`);
  assert.deepEqual(problems, []);
  for (const p of [umpire, ...players]) await p.context.close();
  await organiser.close();
});
