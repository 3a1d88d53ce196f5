import { existsSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot } from "../support/paths.ts"
import { expectOneLineRefusal, runCli, tempDir } from "./run-cli.ts"

const version = JSON.parse(readFileSync(join(repoRoot, "packages/cli/package.json"), "utf8")).version as string

describe("tessera --version", () => {
  it.each([["--version"], ["-v"]])("%s prints the package version and exits 0", async (flag) => {
    const r = await runCli([flag])
    expect(r).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" })
  })
})

describe.concurrent("help on every command: stdout, exit 0, nothing started", () => {
  it.each([[[]], [["-h"]], [["--help"]], [["help"]]])("tessera %j prints the commands", async (args) => {
    const r = await runCli(args)
    expect(r.code).toBe(0)
    expect(r.stderr).toBe("")
    expect(r.stdout).toMatch(/^Usage: tessera <command>/)
    expect(r.stdout).toContain("serve")
    expect(r.stdout).toContain("--version")
  })

  it.each([[["serve", "-h"]], [["serve", "--help"]], [["serve", "help"]], [["help", "serve"]], [["--help", "serve"]]])(
    "tessera %j prints the options of serve, each with its variable; the secret is environment-only",
    async (args) => {
      const r = await runCli(args)
      expect(r.code).toBe(0)
      expect(r.stderr).toBe("")
      expect(r.stdout).toMatch(/^Usage: tessera serve/)
      for (const [flag, variable] of [["--port", "PORT"], ["--host", "HOST"], ["--db", "TESSERA_DB"], ["--clock", "TESSERA_CLOCK"], ["--webhook-url", "TESSERA_WEBHOOK_URL"], ["--client-id", "TESSERA_CLIENT_ID"]])
        expect(r.stdout).toMatch(new RegExp(`${flag} \\S+ +${variable} `))
      expect(r.stdout).toContain("TESSERA_CLIENT_SECRET")
      expect(r.stdout).not.toContain("--client-secret")
      expect(r.stdout).toMatch(/ps/)
    }
  )

  it("serve --help with every other flag set neither opens the database nor listens", async () => {
    const held = createServer()
    const port = await new Promise<number>((r) => held.listen(0, "127.0.0.1", () => r((held.address() as { port: number }).port)))
    await new Promise<void>((r) => held.close(() => r()))
    const db = join(tempDir(), "never.sqlite")
    // A server would run until killed; help must end on its own, before the short timeout.
    const r = await runCli(["serve", "--port", String(port), "--db", db, "--help"], {}, 5000)
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Usage: tessera serve/)
    expect(r.stdout).not.toContain("listening")
    expect(existsSync(db)).toBe(false)
  })
})

describe.concurrent("a command line naming nothing known: one line with a hint, exit 2", () => {
  it.each([
    [["launch"], /unknown command "launch"; run "tessera --help"/],
    [["--bogus"], /unknown option "--bogus"; run "tessera --help"/],
    [["serve", "--bogus"], /unknown option "--bogus" for serve; run "tessera serve --help"/],
    [["serve", "-v"], /unknown option "-v" for serve/],
    [["serve", "extra"], /unexpected argument "extra" for serve/],
    [["serve", "--port"], /--port needs a value/],
    [["serve", "--port", "--host", "0.0.0.0"], /--port needs a value/],
    [["--port", "4010", "serve"], /--port is an option of serve and goes after it/],
    [["help", "launch"], /no help for "launch"/],
    [["--version=2"], /--version takes no value/]
  ])("tessera %j", async (args, pattern) => {
    expectOneLineRefusal(await runCli(args), pattern)
  })
})
