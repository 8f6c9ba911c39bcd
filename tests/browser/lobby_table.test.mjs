// Browser test: the real `galloper serve` on a loopback port, Debian's
// Chromium driven by playwright-core. One player creates the demo game from
// the lobby; a second browser context opens a wing seat's invite link and must
// see its own units on the table map and its seat in the header.
//
// Run by CTest (label browser); the environment is described in harness.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { env, loopbackOnly, screenshot, startHarness, watchPage } from "./harness.mjs";

let harness;
let browser;
let base;

before(async () => {
  harness = await startHarness("lobby_table");
  ({ browser, base } = harness);
});

after(async () => {
  await harness?.stop();
});

test("lobby creates the demo game; a wing seat's link shows its own units", async () => {
  const problems = [];

  // --- The organiser: lobby, create the demo game, read the invites. ---
  const organiser = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await loopbackOnly(organiser);
  const lobby = await organiser.newPage();
  watchPage(lobby, "lobby", problems);
  await lobby.goto(`${base}/`);
  await lobby.locator('[data-testid="scenario"] option[value="malbrook/demo"]').waitFor({ state: "attached", timeout: 15_000 });
  await lobby.locator('[data-testid="title"]').fill("Browser test game");
  await lobby.locator('[data-testid="create-game"]').click();
  const inviteItems = lobby.locator('[data-testid="invites"] li[data-seat]');
  await inviteItems.first().waitFor({ timeout: 15_000 });
  const invites = await inviteItems.evaluateAll((els) =>
    els.map((el) => ({ seat: el.getAttribute("data-seat"), url: el.getAttribute("data-invite-url") })),
  );
  await screenshot(lobby, "lobby-invites");

  assert.ok(invites.length >= 2, `expected the umpire and at least one player seat, got ${JSON.stringify(invites)}`);
  assert.equal(invites[0].seat, "umpire", "the umpire's invite comes first");
  for (const inv of invites) {
    assert.match(inv.url, new RegExp(`^${base.replace(/\./g, "\\.")}/#/join/[^/]+/[^/]+$`), `invite URL for ${inv.seat}`);
  }
  const wing = invites.find((i) => /wing/.test(i.seat)) ?? invites.find((i) => i.seat !== "umpire" && !/army/.test(i.seat));
  assert.ok(wing, `no wing seat among ${invites.map((i) => i.seat).join(", ")}`);

  // The lobby's games list now shows the game.
  await lobby.locator('[data-testid="games"] tbody tr').first().waitFor({ timeout: 10_000 });

  // --- The wing player: a separate browser context opens the link. ---
  const player = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await loopbackOnly(player);
  const table = await player.newPage();
  watchPage(table, "table", problems);
  await table.goto(wing.url);

  const map = table.locator('svg[data-testid="table-map"]');
  const ownUnits = map.locator('g.unit[data-knowledge="own"][data-unit-id]');
  await ownUnits.first().waitFor({ timeout: 15_000 });
  const ownIds = await ownUnits.evaluateAll((els) => els.map((el) => el.getAttribute("data-unit-id")));
  assert.ok(ownIds.length > 0, "the wing seat sees its own units");
  assert.ok(ownIds.every((id) => id && id.length > 0), "every own unit carries data-unit-id");

  const seatText = await table.locator('[data-field="seat"]').innerText();
  assert.ok(seatText.includes(wing.seat), `header shows the seat: got "${seatText}", want "${wing.seat}"`);
  const title = await table.locator('[data-field="title"]').innerText();
  assert.ok(title.length > 0, "header shows the game title");
  await table.locator('[data-field="turn"]').waitFor();
  await table.locator('[data-field="phase"]').waitFor();

  // The map is to scale: the view box was fitted to the table.
  const dims = await map.evaluate((el) => ({
    w: Number(el.getAttribute("data-table-width")),
    d: Number(el.getAttribute("data-table-depth")),
    viewBox: el.getAttribute("viewBox"),
  }));
  assert.ok(dims.w > 0 && dims.d > 0, `table size from the view: ${JSON.stringify(dims)}`);
  assert.ok(dims.viewBox, "the map has a viewBox");

  // Selecting a unit shows its state in the side panel.
  // Clicked on its body: the unit's name and markers stand apart from it.
  await ownUnits.first().locator("polygon.base, polygon.stand").first().click();
  await table.locator(`.unit-panel[data-unit-id="${ownIds[0]}"]`).waitFor({ timeout: 5000 });
  await screenshot(table, "table-wing");

  // Keyboard: Tab to a unit, Enter selects it; "+" zooms in.
  const before = dims.viewBox;
  await map.focus();
  await table.keyboard.press("+");
  const after = await map.getAttribute("viewBox");
  assert.notEqual(after, before, "pressing + zooms the map");
  await table.keyboard.press("Tab");
  const focusedId = await table.evaluate(() => document.activeElement?.getAttribute("data-unit-id"));
  assert.ok(focusedId, "Tab from the map moves to a unit");
  await table.keyboard.press("Enter");
  await table.locator(`.unit-panel[data-unit-id="${focusedId}"]`).waitFor({ timeout: 5000 });

  // Tablet width.
  await table.setViewportSize({ width: 820, height: 1180 });
  await screenshot(table, "table-wing-820x1180");

  assert.deepEqual(problems, [], "no page errors or console errors");
  await organiser.close();
  await player.close();
});
