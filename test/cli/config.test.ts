import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ConfigError, DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, readConfig, SERVE_OPTIONS, type ServeFlags } from "tessera"

const refusal = (env: Record<string, string>, flags: ServeFlags = {}) => {
  try {
    readConfig(env, flags)
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError)
    return (e as Error).message
  }
  throw new Error("accepted")
}

describe("readConfig", () => {
  it("has a default for everything", () => {
    expect(readConfig({})).toEqual({
      port: 4010,
      host: "127.0.0.1",
      db: "./tessera.sqlite",
      clientId: DEFAULT_CLIENT_ID,
      clientSecret: DEFAULT_CLIENT_SECRET,
      clock: "real",
      log: true
    })
  })

  it("reads every variable", () => {
    expect(
      readConfig({
        PORT: "0",
        HOST: "::",
        TESSERA_DB: ":memory:",
        TESSERA_CLIENT_ID: "id",
        TESSERA_CLIENT_SECRET: "secret",
        TESSERA_CLOCK: "virtual",
        TESSERA_WEBHOOK_URL: "https://hooks.example/in",
        TESSERA_LOG: "off"
      })
    ).toEqual({ port: 0, host: "::", db: ":memory:", clientId: "id", clientSecret: "secret", clock: "virtual", webhookUrl: "https://hooks.example/in", log: false })
  })

  it("takes an IPv6 address as written in a URL", () => {
    expect(readConfig({ HOST: "[::1]" }).host).toBe("::1")
  })

  it.each([
    [{ PORT: "" }, {}, "PORT must be an integer from 0 to 65535 (0 picks a free port), got an empty value"],
    [{}, { port: "abc" }, '--port must be an integer from 0 to 65535 (0 picks a free port), got "abc"'],
    [{}, { port: "65536" }, '--port must be an integer from 0 to 65535 (0 picks a free port), got "65536"'],
    [{ PORT: " 4010" }, {}, 'PORT must be an integer from 0 to 65535 (0 picks a free port), got " 4010"'],
    [{ PORT: "1e3" }, {}, 'PORT must be an integer from 0 to 65535 (0 picks a free port), got "1e3"'],
    [{ PORT: "-1" }, {}, 'PORT must be an integer from 0 to 65535 (0 picks a free port), got "-1"'],
    [{ TESSERA_CLOCK: "fast" }, {}, 'TESSERA_CLOCK must be "real" or "virtual", got "fast"'],
    [{}, { clock: "Real" }, '--clock must be "real" or "virtual", got "Real"'],
    [{}, { webhookUrl: "ftp://x.example" }, '--webhook-url must be an http:// or https:// URL, got "ftp://x.example"'],
    [{ TESSERA_WEBHOOK_URL: "hooks.example/in" }, {}, 'TESSERA_WEBHOOK_URL must be an http:// or https:// URL, got "hooks.example/in"'],
    [{ TESSERA_WEBHOOK_URL: "" }, {}, "TESSERA_WEBHOOK_URL must be an http:// or https:// URL, got an empty value"],
    [{ HOST: "" }, {}, "HOST must be an IP address or a host name (127.0.0.1 for this machine only, 0.0.0.0 for all interfaces), got an empty value"],
    [{}, { host: "a b" }, '--host must be an IP address or a host name (127.0.0.1 for this machine only, 0.0.0.0 for all interfaces), got "a b"'],
    [{}, { db: "" }, '--db must be a file path, ":memory:" for the memory store, or a postgres:// URL, got an empty value'],
    [{ TESSERA_CLIENT_ID: "a:b" }, {}, 'TESSERA_CLIENT_ID must be a non-empty id without ":" or control characters, got "a:b"'],
    [{}, { clientId: "" }, '--client-id must be a non-empty id without ":" or control characters, got an empty value'],
    [{ TESSERA_CLIENT_SECRET: "" }, {}, "TESSERA_CLIENT_SECRET must be a non-empty secret without control characters, got an empty value"],
    [{ TESSERA_LOG: "1" }, {}, 'TESSERA_LOG must be "on" or "off", got "1"'],
    [{}, { db: "a\nb" }, '--db must be a file path, ":memory:" for the memory store, or a postgres:// URL, got "a\\nb"']
  ] as ReadonlyArray<[Record<string, string>, ServeFlags, string]>)("refuses %j %j in one line naming where the value came from", (env, flags, message) => {
    expect(refusal(env, flags)).toBe(message)
  })

  it("does not read a variable its flag overrides", () => {
    expect(readConfig({ PORT: "abc", TESSERA_CLOCK: "fast" }, { port: "0", clock: "virtual" })).toMatchObject({ port: 0, clock: "virtual" })
  })
})

// Valid values for each option, as a user would type them.
const validValue: Record<keyof ServeFlags, fc.Arbitrary<string>> = {
  port: fc.integer({ min: 0, max: 65535 }).map(String),
  host: fc.oneof(fc.ipV4(), fc.ipV6(), fc.domain(), fc.constantFrom("localhost", "0.0.0.0", "::")),
  db: fc.oneof(fc.constant(":memory:"), fc.string({ minLength: 1 }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s))),
  clock: fc.constantFrom("real", "virtual"),
  webhookUrl: fc.webUrl(),
  clientId: fc.string({ minLength: 1 }).filter((s) => !s.includes(":") && !/[\u0000-\u001f\u007f]/.test(s)),
  seedFile: fc.string({ minLength: 1 }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s))
}

const expected = (key: keyof ServeFlags, value: string): unknown => (key === "port" ? Number(value) : value)

describe("readConfig property", () => {
  it("any valid flag/variable combination yields a config; a flag wins over its variable; an unset one takes the default", () => {
    const defaults = readConfig({})
    const source = fc.record(
      Object.fromEntries(SERVE_OPTIONS.map((o) => [o.key, fc.record({ flag: fc.option(validValue[o.key], { nil: undefined }), env: fc.option(validValue[o.key], { nil: undefined }) })]))
    ) as fc.Arbitrary<Record<keyof ServeFlags, { flag: string | undefined; env: string | undefined }>>
    fc.assert(
      fc.property(source, (given) => {
        const env: Record<string, string> = {}
        const flags: Record<string, string> = {}
        for (const o of SERVE_OPTIONS) {
          const g = given[o.key]
          if (g.env !== undefined) env[o.env] = g.env
          if (g.flag !== undefined) flags[o.key] = g.flag
        }
        const config = readConfig(env, flags) as unknown as Record<string, unknown>
        for (const o of SERVE_OPTIONS) {
          const g = given[o.key]
          const chosen = g.flag ?? g.env
          const want = chosen === undefined ? (defaults as unknown as Record<string, unknown>)[o.key] : expected(o.key, chosen)
          // The host may be bracketed IPv6 as in a URL; ipV6() never is, so equality holds.
          expect(config[o.key]).toEqual(want)
        }
      }),
      { numRuns: 300 }
    )
  })
})
