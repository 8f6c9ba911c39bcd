import { describe, expect, it } from "vitest";
import { bytesToHex, checkCommitment, hexToBytes, seedCommitment, verifyCommands } from "../src/game/commitment";

// Node 20 has WebCrypto as a global; Node 18 only under node:crypto (imported
// through a variable so the browser-only tsconfig needs no Node types).
const nodeCrypto = "node:crypto";
const subtle: SubtleCrypto =
  globalThis.crypto?.subtle ?? ((await import(/* @vite-ignore */ nodeCrypto)) as { webcrypto: Crypto }).webcrypto.subtle;
const sha256Text = async (text: string) => bytesToHex(new Uint8Array(await subtle.digest("SHA-256", new TextEncoder().encode(text))));
// Seed 00 01 .. 1f and game id "g-0123abcd": SHA-256(seed || id), computed
// independently (Python hashlib) as the server's tokens.cpp does it.
const SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const GAME = "g-0123abcd";
const COMMITMENT = "edf1df5351301cbd21fd88b1c1afc9f6b823b312c4905a05f6cf088acf940559";

describe("seed commitment", () => {
  it("is hex SHA-256 of the seed bytes followed by the game id", async () => {
    expect(await seedCommitment(SEED, GAME, subtle)).toBe(COMMITMENT);
  });

  it("hashes the seed as bytes, not as its hex text", async () => {
    const asText = await sha256Text(SEED + GAME);
    expect(await seedCommitment(SEED, GAME, subtle)).not.toBe(asText);
  });

  it("verifies the commitment shown at the start (case and spaces aside)", async () => {
    expect(await checkCommitment(SEED, GAME, COMMITMENT, subtle)).toEqual({ ok: true, computed: COMMITMENT });
    expect((await checkCommitment(SEED.toUpperCase(), GAME, ` ${COMMITMENT.toUpperCase()} `, subtle)).ok).toBe(true);
  });

  it("fails for another game id, another seed, or a changed commitment", async () => {
    const other = await checkCommitment(SEED, "g-other", COMMITMENT, subtle);
    expect(other.ok).toBe(false);
    if (!other.ok) expect(other.reason).toContain(COMMITMENT);
    const seed2 = SEED.replace(/^00/, "ff");
    expect((await checkCommitment(seed2, GAME, COMMITMENT, subtle)).ok).toBe(false);
    expect((await checkCommitment(SEED, GAME, COMMITMENT.replace(/^e/, "f"), subtle)).ok).toBe(false);
  });

  it("refuses a seed that is not 32 bytes of hex, or no commitment", async () => {
    expect(await checkCommitment("zz", GAME, COMMITMENT, subtle)).toMatchObject({ ok: false, reason: expect.stringContaining("hexadecimal") });
    expect(await checkCommitment("abc", GAME, COMMITMENT, subtle)).toMatchObject({ ok: false });
    expect(await checkCommitment("00ff", GAME, COMMITMENT, subtle)).toMatchObject({ ok: false, reason: expect.stringContaining("2 bytes") });
    expect(await checkCommitment(SEED, GAME, "", subtle)).toMatchObject({ ok: false, reason: expect.stringContaining("no commitment") });
  });

  it("says so when the browser has no SubtleCrypto", async () => {
    await expect(seedCommitment(SEED, GAME, null)).rejects.toThrow(/SubtleCrypto/);
  });

  it("round-trips hex", () => {
    expect(bytesToHex(hexToBytes(SEED)!)).toBe(SEED);
    expect(hexToBytes("0g")).toBeNull();
  });

  it("gives the commands that check the dice", () => {
    const c = verifyCommands(GAME, SEED);
    expect(c.commitment).toContain(SEED);
    expect(c.commitment).toContain("sha256sum");
    expect(c.exportCmd).toMatch(new RegExp(`^galloper export --data .* ${GAME} ${GAME}\\.galloper$`));
    expect(c.verifyCmd).toBe(`galloper verify ${GAME}.galloper`);
  });
});
