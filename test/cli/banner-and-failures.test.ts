import { execFileSync } from "node:child_process"
import { Effect, ManagedRuntime, Layer } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ConfigError, curlExample, databaseProblem, listenProblem, reachableUrl, reportFailure, shellQuote, StartupError, UsageError } from "tessera"

describe("shellQuote", () => {
  it("any string comes back from sh as the one word it was", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary", minLength: 1 }).filter((s) => !s.includes("\u0000")), { minLength: 1, maxLength: 40 }), (words) => {
        const out = execFileSync("/bin/sh", ["-c", `printf '%s\\0' ${words.map(shellQuote).join(" ")}`], { encoding: "utf8" })
        expect(out.split("\u0000").slice(0, -1)).toEqual(words)
      }),
      { numRuns: 30 }
    )
  })

  it("leaves plain words bare and quotes what a shell would expand", () => {
    expect(shellQuote("sandbox-client-id")).toBe("sandbox-client-id")
    expect(shellQuote("http://127.0.0.1:4010/2025-10-13/customers")).toBe("http://127.0.0.1:4010/2025-10-13/customers")
    for (const s of ["=x", "~me", "a b", "$HOME", "it's", "*", "[::1]"]) expect(shellQuote(s)).toMatch(/^'.*'$/)
  })
})

describe("the banner's address", () => {
  it("dials loopback for a wildcard address, keeps a specific one, and shows the bound port", () => {
    expect(reachableUrl({ address: "0.0.0.0", family: "IPv4", port: 40123 })).toBe("http://127.0.0.1:40123/2025-10-13")
    expect(reachableUrl({ address: "::", family: "IPv6", port: 40123 })).toBe("http://127.0.0.1:40123/2025-10-13")
    expect(reachableUrl({ address: "::1", family: "IPv6", port: 1 })).toBe("http://[::1]:1/2025-10-13")
    expect(reachableUrl({ address: "192.168.1.5", family: "IPv4", port: 4010 })).toBe("http://192.168.1.5:4010/2025-10-13")
  })

  it("turns curl's URL globbing off for an IPv6 literal and quotes the URL", () => {
    expect(curlExample("http://[::1]:4010/2025-10-13", "id", { fromEnv: true })).toBe(`curl -g -u id:"$TESSERA_CLIENT_SECRET" 'http://[::1]:4010/2025-10-13/customers'`)
  })
})

describe("reportFailure", () => {
  it("a problem the user can fix: its one line, exit 2", () => {
    for (const e of [new UsageError("unknown command"), new ConfigError("PORT must be…"), new StartupError("port 1 is already in use")])
      expect(reportFailure(e, false)).toEqual({ text: `tessera: ${e.message}\n`, exitCode: 2 })
  })

  it("anything else: one line with the debug hint, exit 1; the stack only when debugging", () => {
    const e = new Error("boom\n  with a second line")
    expect(reportFailure(e, false)).toEqual({ text: "tessera: unexpected error: boom (set TESSERA_DEBUG=1 to see the stack)\n", exitCode: 1 })
    const debug = reportFailure(e, true)
    expect(debug.exitCode).toBe(1)
    expect(debug.text).toMatch(/^tessera: unexpected error: boom\n/)
    expect(debug.text).toContain(e.stack!.split("\n")[1]!)
  })

  it("names the error inside Effect's wrapper, not the wrapper", async () => {
    const runtime = ManagedRuntime.make(Layer.empty)
    const thrown = await runtime.runPromise(Effect.die(new RangeError("deep inside"))).catch((e: unknown) => e)
    expect(reportFailure(thrown, false).text).toBe("tessera: unexpected error: deep inside (set TESSERA_DEBUG=1 to see the stack)\n")
    await runtime.dispose()
  })
})

describe("startup problems", () => {
  const errno = (code: string) => Object.assign(new Error(code), { code })

  it("a port that needs privileges (not testable by spawning as root)", () => {
    expect(listenProblem("127.0.0.1", 80, errno("EACCES"))?.message).toBe("no permission to listen on port 80; choose a port above 1023 with --port (0 picks a free one)")
  })

  it("leave an error that is not about the port, the host or the file to the unexpected path", () => {
    expect(listenProblem("127.0.0.1", 4010, errno("EMFILE"))).toBeUndefined()
    expect(databaseProblem("./t.sqlite", new TypeError("x is not a function"))).toBeUndefined()
  })
})
