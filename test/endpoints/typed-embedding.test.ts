import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { repoRoot } from "../support/paths.ts"

const fixture = (name: string) => resolve(repoRoot, "test/endpoints/fixtures", name)
const VALID = fixture("create-customer-valid.ts")
const WRONG = fixture("create-customer-wrong-type.ts")

/** The repository's compiler options, as a consumer project compiling these files would use them. */
const options = (): ts.CompilerOptions => {
  const path = resolve(repoRoot, "tsconfig.base.json")
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(path, ts.sys.readFile).config, ts.sys, repoRoot)
  return { ...parsed.options, noEmit: true }
}

/** Each diagnostic of the file as `source text it points at: message`. */
const diagnosticsOf = (program: ts.Program, file: string) => {
  const source = program.getSourceFile(file)!
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map(
    (d) => `${source.text.slice(d.start ?? 0, (d.start ?? 0) + (d.length ?? 0))}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`
  )
}

describe("the embedding API is typed from the endpoint table", () => {
  // One program for both files: the core is checked once.
  const program = ts.createProgram([VALID, WRONG], options())

  it("refuses a number as customerType at compile time", () => {
    const messages = diagnosticsOf(program, WRONG)
    expect(messages.length).toBeGreaterThan(0)
    expect(messages).toEqual([expect.stringMatching(/^customerType: Type 'number' is not assignable/)])
  })

  it("accepts the valid request, and the file runs", async () => {
    expect(diagnosticsOf(program, VALID)).toEqual([])
    // The two files differ only in that one field.
    const differing = (a: string, b: string) => a.split("\n").filter((line, i) => line !== b.split("\n")[i])
    expect(differing(readFileSync(VALID, "utf8"), readFileSync(WRONG, "utf8"))).toHaveLength(2)
    const { run } = (await import(VALID)) as { run: () => Promise<string> }
    expect(await run()).toMatch(/^Customer:\S+ INDIVIDUAL$/)
  })
}, 120_000)
