import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const here = path.dirname(fileURLToPath(import.meta.url));

// The CMake target points outDir into the build tree (GALLOPER_WEB_OUT_DIR);
// a bare `npm run build` writes ./dist, which git ignores.
export default defineConfig({
  base: "./",
  resolve: {
    alias: { "@gen": path.join(here, "node_modules", ".galloper-gen") },
  },
  build: {
    outDir: process.env.GALLOPER_WEB_OUT_DIR ?? path.join(here, "dist"),
    emptyOutDir: true,
    target: "es2020",
    sourcemap: true,
  },
  // `npm run dev`: the page's /ws goes to a running galloper (or the mock in
  // tests/browser/mock_server.mjs) at GALLOPER_DEV_SERVER, default 127.0.0.1:8080.
  server: {
    host: "127.0.0.1",
    proxy: {
      "/ws": { target: `ws://${process.env.GALLOPER_DEV_SERVER ?? "127.0.0.1:8080"}`, ws: true },
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
  },
});
