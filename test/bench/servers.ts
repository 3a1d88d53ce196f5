// The processes the HTTP benches measure: `tessera serve` as a user runs it (the checkout's
// bundled CLI, request log off) and the bare node:http baseline server (bare-server.ts, bundled).
import { type ChildProcess, spawn } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { build } from "esbuild"
import { repoRoot } from "../support/paths.ts"
import type { BareConfig } from "./capture.ts"

const here = dirname(fileURLToPath(import.meta.url))
export const CLI = join(repoRoot, "packages/cli/bin/tessera.mjs")
/** The bundle `CLI` runs in a checkout (scripts/dev-cli.cjs), its code cache beside it. */
export const CLI_BUNDLE = join(repoRoot, "packages/cli/dev/tessera.cjs")
const bareBundle = join(here, "dist", "bare-server.mjs")
export const bareStart = join(here, "dist", "bare-start.mjs")

export interface Running {
  readonly port: number
  readonly child: ChildProcess
  readonly stop: () => Promise<void>
}

const stopper = (child: ChildProcess) => () =>
  new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : (child.once("exit", () => r()), child.kill("SIGTERM"))))

const started = (child: ChildProcess, ready: RegExp) =>
  new Promise<Running>((resolve, reject) => {
    let out = ""
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      const m = ready.exec(out)
      if (m) resolve({ port: Number(m[1]), child, stop: stopper(child) })
    })
    child.once("error", reject)
    child.once("exit", (code) => reject(new Error(`server exited (${code}) before it was ready: ${out}`)))
  })

/**
 * The CLI as its tarball installs it, for the cold start of an installed `tessera` (DECISIONS
 * #530): its `bin/` beside a `dist/` holding the bundle `scripts/pack-all.mjs` builds (better-sqlite3
 * required as a package), and better-sqlite3 from this checkout's install. Answers its binary and
 * its bundle (whose code cache sits beside it).
 */
export const layOutInstalledCli = async (): Promise<{ readonly binary: string; readonly bundle: string }> => {
  const dir = tempDir("installed")
  const cli = join(repoRoot, "packages", "cli")
  mkdirSync(join(dir, "bin"))
  for (const f of ["tessera.mjs", "run-bundle.cjs"]) copyFileSync(join(cli, "bin", f), join(dir, "bin", f))
  copyFileSync(join(cli, "package.json"), join(dir, "package.json"))
  const { bundleCli } = (await import(pathToFileURL(join(repoRoot, "scripts", "bundle-cli.mjs")).href)) as typeof import("../../scripts/bundle-cli.mjs")
  const bundle = join(dir, "dist", "tessera.cjs")
  await bundleCli({ outfile: bundle, sqlite: "package" })
  symlinkSync(join(cli, "node_modules"), join(dir, "node_modules"), "dir")
  return { binary: join(dir, "bin", "tessera.mjs"), bundle }
}

/** Makes sure the CLI bundle is fresh, so no start times a rebuild. */
export const buildCli = () => new Promise((done) => spawn(process.execPath, [CLI, "build"], { stdio: "inherit" }).on("exit", done))

export const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `tessera-bench-${name}-`))

/**
 * `tessera serve` on a fresh SQLite file or on the memory store, platform bench:bench-secret; the
 * binary is this checkout's unless `cli` names another's (before-after.ts).
 */
export const startTessera = (store: "memory" | "sqlite", cli = CLI) =>
  started(
    spawn(process.execPath, [cli, "serve", "--port", "0", "--db", store === "memory" ? ":memory:" : join(tempDir("serve"), "b.sqlite"), "--client-id", "bench"], {
      env: { ...process.env, TESSERA_CLIENT_SECRET: "bench-secret", TESSERA_LOG: "off" },
      stdio: ["ignore", "pipe", "inherit"]
    }),
    /listening on http:\/\/[^:]+:(\d+)[\s\S]*ready in/
  )

// Bundled like Tessera's CLI: under tsx's loader it would pay a transform Tessera does not.
const bundle = (entry: string, outfile: string) =>
  build({
    entryPoints: [join(here, entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    external: ["better-sqlite3"],
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
    logLevel: "warning"
  })
export const buildBare = () => Promise.all([bundle("bare-server.ts", bareBundle), bundle("bare-start.ts", bareStart)])

export const startBare = (config: BareConfig) => {
  const file = join(tempDir("bare"), "config.json")
  writeFileSync(file, JSON.stringify(config))
  return started(spawn(process.execPath, [bareBundle, file], { stdio: ["ignore", "pipe", "inherit"] }), /READY (\d+)/)
}

/**
 * What the HTTP and flow benches start from: both bundles built, then a Tessera target on memory
 * and one on a new SQLite file, pushed onto `servers` (the caller stops them however it ends).
 */
export const startTesseraPair = async (servers: Array<Running>) => {
  const memory = await startTessera("memory")
  servers.push(memory)
  const sqlite = await startTessera("sqlite")
  servers.push(sqlite)
  return { memory, sqlite }
}
