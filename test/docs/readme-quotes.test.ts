import { existsSync, readdirSync, readFileSync } from "node:fs"
import { resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot } from "../support/paths.ts"

const EXAMPLES = "test/examples"
const MARKER = /^<!-- quote: (\S+) -->$/

interface Quote {
  readonly file: string
  readonly line: number
  /** The fenced block under the marker, or undefined when no fence follows it directly. */
  readonly block: string | undefined
}

const quotesIn = (markdown: string): ReadonlyArray<Quote> => {
  const lines = markdown.split("\n")
  const quotes: Array<Quote> = []
  lines.forEach((text, i) => {
    const m = MARKER.exec(text.trim())
    if (m === null) return
    const open = lines[i + 1] ?? ""
    const close = lines.findIndex((l, j) => j > i + 1 && l.startsWith("```"))
    const block = open.startsWith("```") && close !== -1 ? lines.slice(i + 2, close).join("\n") + "\n" : undefined
    quotes.push({ file: m[1]!, line: i + 1, block })
  })
  return quotes
}

const readme = readFileSync(resolve(repoRoot, "README.md"), "utf8")
const quotes = quotesIn(readme)

describe("README quotes test/examples verbatim", () => {
  it("quotes something", () => {
    expect(quotes.length).toBeGreaterThan(0)
  })

  it.each(quotes.map((q) => [`${q.file} (README line ${q.line})`, q] as const))("%s", (_name, q) => {
    expect(q.file.startsWith(`${EXAMPLES}/`), "quotes come from test/examples").toBe(true)
    const path = resolve(repoRoot, q.file)
    expect(existsSync(path), `${q.file} exists`).toBe(true)
    expect(q.block, "a fenced block follows the marker line").toBeDefined()
    expect(q.block).toBe(readFileSync(path, "utf8"))
  })

  it("quotes every file in test/examples", () => {
    const quoted = new Set(quotes.map((q) => q.file))
    const unquoted = readdirSync(resolve(repoRoot, EXAMPLES))
      .map((f) => `${EXAMPLES}/${f}`)
      .filter((f) => !quoted.has(f))
    expect(unquoted).toEqual([])
  })
})
