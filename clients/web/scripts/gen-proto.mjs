// Generates the protocol types (JS + .d.ts) from proto/ with protoc and
// protoc-gen-es. Output goes to node_modules/.galloper-gen (never the source
// tree proper); it is regenerated on every build and never committed.
//
// Environment: PROTOC (default: protoc on PATH), GALLOPER_PROTO_DIR (default:
// ../../proto relative to this package).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const protoDir = path.resolve(process.env.GALLOPER_PROTO_DIR ?? path.join(webDir, "..", "..", "proto"));
const outDir = path.join(webDir, "node_modules", ".galloper-gen");
const protoc = process.env.PROTOC || "protoc";
const plugin = path.join(webDir, "node_modules", ".bin", "protoc-gen-es");

const files = readdirSync(path.join(protoDir, "galloper", "v1"))
  .filter((f) => f.endsWith(".proto"))
  .sort()
  .map((f) => `galloper/v1/${f}`);
if (files.length === 0) {
  console.error(`gen-proto: no .proto files under ${protoDir}/galloper/v1`);
  process.exit(1);
}

// Generate into a scratch directory, then copy only files whose content
// changed: the output stays put (and readable) when another build tree runs
// this at the same time, and an unchanged schema touches nothing.
const scratch = mkdtempSync(path.join(webDir, "node_modules", ".galloper-gen-tmp-"));
try {
  const result = spawnSync(
    protoc,
    [
      `--proto_path=${protoDir}`,
      `--plugin=protoc-gen-es=${plugin}`,
      `--es_out=${scratch}`,
      "--es_opt=target=js+dts,import_extension=js",
      ...files,
    ],
    { stdio: "inherit" },
  );
  if (result.error) {
    console.error(`gen-proto: cannot run ${protoc}: ${result.error.message} (install Debian's protobuf-compiler)`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);

  const genDir = path.join("galloper", "v1");
  const fresh = readdirSync(path.join(scratch, genDir));
  mkdirSync(path.join(outDir, genDir), { recursive: true });
  for (const f of fresh) {
    const text = readFileSync(path.join(scratch, genDir, f), "utf8");
    const dest = path.join(outDir, genDir, f);
    if (!existsSync(dest) || readFileSync(dest, "utf8") !== text) writeFileSync(dest, text);
  }
  for (const f of readdirSync(path.join(outDir, genDir))) {
    if (!fresh.includes(f)) rmSync(path.join(outDir, genDir, f));
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
