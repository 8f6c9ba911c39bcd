// Browser test: the real `galloper serve` on a loopback port, Debian's
// Chromium driven by playwright-core. One player creates the demo game from
// the lobby; a second browser context opens a wing seat's invite link and must
// see its own units on the table map and its seat in the header.
//
// Run by CTest (label browser) with:
//   GALLOPER_BIN          the server binary ($<TARGET_FILE:galloper>)
//   GALLOPER_STATIC_DIR   the built web client (clients/web/dist in the build tree)
//   GALLOPER_WEB_DIR      clients/web (for playwright-core from its node_modules)
//   GALLOPER_CHROMIUM     default /usr/bin/chromium
//   GALLOPER_ARTIFACTS_DIR  screenshots and the server log go here
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, accessSync, constants, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const env = {
  bin: process.env.GALLOPER_BIN ?? "",
  staticDir: process.env.GALLOPER_STATIC_DIR ?? "",
  webDir: process.env.GALLOPER_WEB_DIR || path.join(repo, "clients/web"),
  chromium: process.env.GALLOPER_CHROMIUM || "/usr/bin/chromium",
  artifacts: process.env.GALLOPER_ARTIFACTS_DIR || path.join(repo, "build/test-artifacts/browser"),
};

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function requireSetup() {
  if (!env.bin) {
    throw new Error(
      "galloper server binary missing: GALLOPER_BIN is empty (the CMake target `galloper` did not exist when " +
        "this build was configured; build server/ and re-run cmake)",
    );
  }
  if (!existsSync(env.bin)) {
    throw new Error(`galloper server binary missing: ${env.bin} does not exist (build the \`galloper\` target first)`);
  }
  accessSync(env.bin, constants.X_OK);
  if (!existsSync(path.join(env.staticDir, "index.html"))) {
    throw new Error(`web client not built: ${env.staticDir}/index.html missing (build the \`web_client\` target)`);
  }
  if (!existsSync(env.chromium)) {
    throw new Error(`Chromium missing at ${env.chromium}: run \`.ci/deps --web\` (Debian package chromium)`);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitHealthy(base, proc, logPath, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      throw new Error(`galloper serve exited early (${proc.exitCode ?? proc.signalCode}); see ${logPath}`);
    }
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.status === 200) return;
      lastError = `status ${res.status}`;
    } catch (e) {
      lastError = String(e?.cause?.code ?? e);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`galloper serve did not answer ${base}/healthz within ${timeoutMs} ms (${lastError}); see ${logPath}`);
}

// Keep every request on loopback: anything else is refused in the browser.
async function loopbackOnly(context) {
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    const ok = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname) || url.protocol === "data:";
    return ok ? route.continue() : route.abort("blockedbyclient");
  });
}

function watchPage(page, label, problems) {
  page.on("pageerror", (e) => problems.push(`${label}: page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`${label}: console error: ${m.text()}`);
  });
}

let server;
let dataDir;
let browser;
let base;
let logPath;

before(async () => {
  requireSetup();
  mkdirSync(env.artifacts, { recursive: true });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "galloper-browser-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  logPath = path.join(env.artifacts, "server.log");
  const log = createWriteStream(logPath);
  server = spawn(env.bin, ["serve", "--listen", `127.0.0.1:${port}`, "--data", dataDir, "--static-dir", env.staticDir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  await waitHealthy(base, server, logPath);

  const require = createRequire(path.join(env.webDir, "package.json"));
  const { chromium } = require("playwright-core");
  browser = await chromium.launch({ executablePath: env.chromium, headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close().catch(() => {});
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((r) => {
      const t = setTimeout(() => {
        server.kill("SIGKILL");
        r();
      }, 5000);
      server.once("exit", () => {
        clearTimeout(t);
        r();
      });
    });
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("lobby creates the demo game; a wing seat's link shows its own units", async () => {
  const problems = [];

  // --- The organiser: lobby, create the demo game, read the invites. ---
  const organiser = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await loopbackOnly(organiser);
  const lobby = await organiser.newPage();
  watchPage(lobby, "lobby", problems);
  await lobby.goto(`${base}/`);
  await lobby.locator('[data-testid="scenario"] option[value="demo"]').waitFor({ state: "attached", timeout: 15_000 });
  await lobby.locator('[data-testid="title"]').fill("Browser test game");
  await lobby.locator('[data-testid="create-game"]').click();
  const inviteItems = lobby.locator('[data-testid="invites"] li[data-seat]');
  await inviteItems.first().waitFor({ timeout: 15_000 });
  const invites = await inviteItems.evaluateAll((els) =>
    els.map((el) => ({ seat: el.getAttribute("data-seat"), url: el.getAttribute("data-invite-url") })),
  );
  await lobby.screenshot({ path: path.join(env.artifacts, "lobby-invites.png"), fullPage: true });

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
  await ownUnits.first().click();
  await table.locator(`.unit-panel[data-unit-id="${ownIds[0]}"]`).waitFor({ timeout: 5000 });
  await table.screenshot({ path: path.join(env.artifacts, "table-wing.png") });

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
  await table.screenshot({ path: path.join(env.artifacts, "table-wing-tablet.png"), fullPage: true });

  assert.deepEqual(problems, [], "no page errors or console errors");
  await organiser.close();
  await player.close();
});
