import { describe, expect, it } from "vitest"
import { parseCommandLine, UsageError } from "tessera"

const usageError = (argv: ReadonlyArray<string>) => {
  try {
    parseCommandLine(argv)
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError)
    return (e as Error).message
  }
  throw new Error("accepted")
}

describe("parseCommandLine", () => {
  it("takes a flag's value as the next word or after =", () => {
    const expected = { _tag: "Serve", flags: { port: "4010", host: "0.0.0.0", db: ":memory:", clock: "virtual", webhookUrl: "http://h.example/", clientId: "me" } }
    expect(parseCommandLine(["serve", "--port", "4010", "--host", "0.0.0.0", "--db", ":memory:", "--clock", "virtual", "--webhook-url", "http://h.example/", "--client-id", "me"])).toEqual(expected)
    expect(parseCommandLine(["serve", "--port=4010", "--host=0.0.0.0", "--db=:memory:", "--clock=virtual", "--webhook-url=http://h.example/", "--client-id=me"])).toEqual(expected)
  })

  it("keeps an empty value given with = for the config check to name", () => {
    expect(parseCommandLine(["serve", "--port="])).toEqual({ _tag: "Serve", flags: { port: "" } })
  })

  it("lets the last of a repeated flag win and reads a value that starts with a single dash", () => {
    expect(parseCommandLine(["serve", "--port", "1", "--port", "2", "--db", "-"])).toEqual({ _tag: "Serve", flags: { port: "2", db: "-" } })
  })

  it("shows help wherever it is asked for, even beside a mistake", () => {
    for (const argv of [["serve", "--bogus", "--help"], ["serve", "extra", "-h"], ["serve", "--port", "1", "help"]]) expect(parseCommandLine(argv)).toEqual({ _tag: "Help", topic: "serve" })
    for (const argv of [[], ["-h"], ["--help"], ["help"]]) expect(parseCommandLine(argv)).toEqual({ _tag: "Help", topic: "tessera" })
    expect(parseCommandLine(["help", "serve"])).toEqual({ _tag: "Help", topic: "serve" })
  })

  it("reads --version and -v before a command only", () => {
    expect(parseCommandLine(["--version"])).toEqual({ _tag: "Version" })
    expect(parseCommandLine(["-v", "serve"])).toEqual({ _tag: "Version" })
    expect(usageError(["serve", "--version"])).toBe('unknown option "--version" for serve; run "tessera serve --help" for usage')
  })

  it("does not take the secret as a flag", () => {
    expect(usageError(["serve", "--client-secret", "x"])).toBe('unknown option "--client-secret" for serve; run "tessera serve --help" for usage')
  })

  it("names a value-less flag and does not swallow the next flag as its value", () => {
    expect(usageError(["serve", "--db", "--port", "1"])).toBe('--db needs a value (--db <file|url> or --db=<file|url>); run "tessera serve --help" for usage')
  })
})
