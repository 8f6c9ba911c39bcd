// The dice check a player can make in the browser once the game has ended.
//
// The server commits to the game's secret seed when the game is created:
//   seed_commitment = hex(SHA-256(seed bytes || game id as UTF-8))
// (server/src/tokens.cpp, seed_commitment; `galloper verify` checks the same).
// At the end it reveals the seed (GameNotice.seed_hex, GameView.seed_hex);
// anyone can then hash it again and compare.

export type CommitmentCheck =
  | { ok: true; computed: string }
  | { ok: false; computed: string; reason: string };

// Strict: an even number of hex digits, nothing else.
export function hexToBytes(hex: string): Uint8Array | null {
  const clean = hex.trim();
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

// hex(SHA-256(seed || game id)), with WebCrypto. `subtle` is injectable for
// tests; pages use the browser's (only available in a secure context:
// https, or http on localhost / 127.0.0.1).
export async function seedCommitment(
  seedHex: string,
  gameId: string,
  subtle: SubtleCrypto | null = globalThis.crypto?.subtle ?? null,
): Promise<string> {
  const seed = hexToBytes(seedHex);
  if (!seed) throw new Error("the revealed seed is not hexadecimal");
  if (!subtle) throw new Error("this browser offers no SubtleCrypto here (it needs https or localhost)");
  const id = new TextEncoder().encode(gameId);
  const buf = new Uint8Array(seed.length + id.length);
  buf.set(seed, 0);
  buf.set(id, seed.length);
  const digest = await subtle.digest("SHA-256", buf);
  return bytesToHex(new Uint8Array(digest));
}

// Compares the hash of the revealed seed with the commitment the page was
// shown since the start. Case-insensitive hex; whitespace ignored.
export async function checkCommitment(
  seedHex: string,
  gameId: string,
  commitment: string,
  subtle: SubtleCrypto | null = globalThis.crypto?.subtle ?? null,
): Promise<CommitmentCheck> {
  const seed = hexToBytes(seedHex);
  if (!seed) return { ok: false, computed: "", reason: "the revealed seed is not hexadecimal" };
  if (seed.length !== 32) return { ok: false, computed: "", reason: `the revealed seed is ${seed.length} bytes, not 32` };
  if (!commitment.trim()) return { ok: false, computed: "", reason: "no commitment was shown to compare with" };
  const computed = await seedCommitment(seedHex, gameId, subtle);
  if (computed === commitment.trim().toLowerCase()) return { ok: true, computed };
  return {
    ok: false,
    computed,
    reason: `SHA-256(seed || game id) is ${computed}, but the commitment shown since the start is ${commitment.trim()}`,
  };
}

// The shell commands that check every die, for the verify screen. The
// commitment alone can be checked with coreutils; the whole game with the
// server's own tools (export runs where the game store is).
export function verifyCommands(gameId: string, seedHex: string): { commitment: string; exportCmd: string; verifyCmd: string } {
  const file = `${gameId}.galloper`;
  return {
    commitment: `{ printf '%s' '${seedHex}' | xxd -r -p; printf '%s' '${gameId}'; } | sha256sum`,
    exportCmd: `galloper export --data <the server's data directory> ${gameId} ${file}`,
    verifyCmd: `galloper verify ${file}`,
  };
}
