import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "vitest"
import { repoRoot } from "../support/paths.ts"

export const CLI = join(repoRoot, "packages/cli/bin/tessera.mjs")

export interface CliResult {
  /** null when the process had to be killed: it did not finish on its own. */
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * The environment of a spawned CLI: none of the caller's server settings leak in, and each run
 * gets its own working directory so the default ./tessera.sqlite never lands in the repository.
 */
const cliEnv = (env: Record<string, string>) => {
  const base: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "PORT" && k !== "HOST" && !k.startsWith("TESSERA_")) base[k] = v
  return { ...base, ...env }
}

// bin/tessera.mjs rebuilds a stale bundle on start; with several of this file's CLIs starting at
// once after a source edit, one could read the bundle while another writes it. Build it first.
let bundleReady: Promise<void> | undefined
const ensureBundle = () =>
  (bundleReady ??= new Promise((resolve) => spawn(process.execPath, [CLI, "build"], { stdio: "ignore" }).on("exit", () => resolve())))

export const tempDir = () => mkdtempSync(join(tmpdir(), "tessera-cli-"))

/** Runs the CLI to completion (killed after `timeoutMs`: a command that starts a server never ends). */
export const runCli = async (args: ReadonlyArray<string>, env: Record<string, string> = {}, timeoutMs = 10_000): Promise<CliResult> => {
  await ensureBundle()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(env), cwd: tempDir(), stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

export interface RunningCli {
  readonly child: ChildProcess
  /** The banner, as printed. */
  readonly banner: string
  /** Everything printed on stdout so far. */
  readonly stdout: () => string
  readonly stop: () => Promise<void>
}

/** Starts `tessera serve …` and resolves once the banner is complete. */
export const startCli = async (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<RunningCli> => {
  await ensureBundle()
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(env), cwd: tempDir(), stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let err = ""
    const exited = new Promise<void>((r) => child.once("exit", () => r()))
    child.stderr.on("data", (d: Buffer) => (err += d.toString()))
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString()
      if (/ready in \d+ ms\n/.test(out))
        resolve({
          child,
          banner: out,
          stdout: () => out,
          stop: async () => {
            child.kill("SIGTERM")
            await exited
          }
        })
    })
    child.on("exit", (code) => reject(new Error(`tessera exited ${code} before it was ready: ${err}`)))
  })
}

/** What every refusal looks like: nothing on stdout, one `tessera: …` line on stderr, no stack. */
export const expectOneLineRefusal = (r: CliResult, pattern: RegExp, code = 2) => {
  expect(r.code, r.stderr).toBe(code)
  expect(r.stdout).toBe("")
  expect(r.stderr).toMatch(/^tessera: [^\n]+\n$/)
  expect(r.stderr).not.toMatch(/\n\s+at /)
  expect(r.stderr).toMatch(pattern)
}
