import { execFileSync, spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { repoRoot } from "../support/paths.ts"

// The strings the check looks for, assembled so this file does not trip the check itself.
const sibling = ["..", "shared", "reference", "openapi.yaml"].join("/")
const variable = ["TESSERA", "SHARED"].join("_")
const absolute = ["", "work", "shared", "x"].join("/")

/** A throwaway repository holding a copy of the script and the given files, all added to git. */
const repoWith = (files: Record<string, string>, untracked: Record<string, string> = {}) => {
  const dir = mkdtempSync(join(tmpdir(), "tessera-selfcontained-"))
  mkdirSync(join(dir, "scripts"))
  copyFileSync(join(repoRoot, "scripts/check-self-contained.mjs"), join(dir, "scripts/check-self-contained.mjs"))
  for (const [name, text] of Object.entries({ ...files, ...untracked })) writeFileSync(join(dir, name), text)
  execFileSync("git", ["init", "-q"], { cwd: dir })
  execFileSync("git", ["add", "scripts", ...Object.keys(files)], { cwd: dir })
  return dir
}
const run = (dir: string) => spawnSync(process.execPath, ["scripts/check-self-contained.mjs"], { cwd: dir, encoding: "utf8" })

const dirs: Array<string> = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe("scripts/check-self-contained.mjs", () => {
  it("passes a repository that refers only to itself, its own source included", () => {
    const dir = repoWith({ "notes.md": "See `docs/openapi.md` and `test/crypto/vectors.json`.\n" }, { "scratch.md": `${sibling}\n` })
    dirs.push(dir)
    const r = run(dir)
    expect(r.stdout).toMatch(/^self-contained/)
    expect(r.status).toBe(0)
  })

  it("fails with file:line for each tracked line that reaches outside", () => {
    const dir = repoWith({
      "a.md": `fine\nthe reference is ${sibling}\n`,
      "b.ts": `const d = process.env["${variable}"]\nconst e = 1\nconst f = "${absolute}"\n`
    })
    dirs.push(dir)
    const r = run(dir)
    expect(r.status).toBe(1)
    const flagged = r.stdout.split("\n").filter((l) => /^\S+:\d+: /.test(l)).map((l) => l.split(": ")[0])
    expect(flagged).toEqual(["a.md:2", "b.ts:1", "b.ts:3"])
  })
})
