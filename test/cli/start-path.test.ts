// What `tessera serve` loads at start: nothing that only tests need (issue 15), whether through
// the CLI bundle or through a package's public entry point, and never a code cache of another bundle.
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { build, type Metafile } from "esbuild"
import { describe, expect, it } from "vitest"
import { bundleCli, withoutFastCheck } from "../../scripts/bundle-cli.mjs"
import { repoRoot } from "../support/paths.ts"
import { startCli, tempDir } from "./run-cli.ts"

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, any>
const publicPackages = ["core", "adapter-memory", "adapter-sqlite", "adapter-postgres", "adapter-http", "cli"].map((d) => ({
  dir: join(repoRoot, "packages", d),
  pkg: readJson(join(repoRoot, "packages", d, "package.json"))
}))

/**
 * Test-only libraries: what the test package depends on (and what those depend on directly, like
 * fast-check's pure-rand) that no public package lists as a dependency of its own.
 */
const testOnlyLibraries = (() => {
  const testPkg = readJson(join(repoRoot, "test", "package.json"))
  const production = new Set(publicPackages.flatMap(({ pkg }) => [pkg.name, ...Object.keys(pkg.dependencies ?? {})]))
  const direct = Object.keys({ ...testPkg.dependencies, ...testPkg.devDependencies })
  const resolveFromTest = createRequire(join(repoRoot, "test", "package.json"))
  const theirs = direct.flatMap((name) => {
    try {
      return Object.keys(readJson(resolveFromTest.resolve(`${name}/package.json`)).dependencies ?? {})
    } catch {
      return [] // A package that does not export its package.json: its own name is still listed.
    }
  })
  return new Set([...direct, ...theirs].filter((name) => !production.has(name) && !name.startsWith("@tessera/")))
})()

/** The package a bundled file belongs to (pnpm's layout), or the repository folder it sits in. */
const ownerOf = (input: string): string => {
  const m = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(input)
  return m !== null ? m[1]! : input
}

/** Every test-only file in a bundle, each with the chain of imports that brought it in. */
const testOnlyIn = (metafile: Metafile) => {
  const importer = new Map<string, string>()
  for (const [file, { imports }] of Object.entries(metafile.inputs)) for (const i of imports) if (!importer.has(i.path)) importer.set(i.path, file)
  const chain = (file: string) => {
    const seen = [file]
    while (importer.has(seen[0]!) && seen.length < 40) seen.unshift(importer.get(seen[0]!)!)
    return seen.join(" → ")
  }
  return Object.keys(metafile.inputs)
    .filter((f) => testOnlyLibraries.has(ownerOf(f)) || f.includes("packages/core/src/testing/"))
    .map(chain)
}

describe("the server's start path", () => {
  it("knows the test-only libraries it must keep out", () => {
    // The list is derived; it must still name what the issue found in the bundle.
    for (const name of ["fast-check", "pure-rand", "vitest", "@effect/vitest"]) expect(testOnlyLibraries).toContain(name)
    for (const name of ["effect", "better-sqlite3", "pg", "@noble/curves"]) expect(testOnlyLibraries).not.toContain(name)
  })

  it("the CLI bundle holds no test-only library and none of the core's testing toolkit", async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), "tessera-bundle-")), "tessera.cjs")
    const { metafile } = await bundleCli({ outfile, sqlite: "package" })
    expect(Object.keys(metafile.inputs).length).toBeGreaterThan(200)
    expect(testOnlyIn(metafile)).toEqual([])
  }, 60_000)

  // The packages' own entry points, as a user's bundler sees them (Effect's reference to fast-check
  // given the CLI bundle's stand-in: it is Effect's, and users who bundle get it either way).
  const entries = publicPackages.flatMap(({ dir, pkg }) =>
    Object.entries(pkg.exports as Record<string, string>)
      .filter(([subpath]) => !subpath.startsWith("./testing"))
      .map(([subpath, file]) => ({ name: `${pkg.name}${subpath.slice(1)}`, file: join(dir, file) }))
  )
  it.each(entries)("$name imports no test-only library", async ({ file }) => {
    const result = await build({
      entryPoints: [file],
      absWorkingDir: repoRoot,
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      outdir: "out",
      external: ["better-sqlite3", "pg-native", "cloudflare:sockets"],
      plugins: [withoutFastCheck],
      logLevel: "silent"
    })
    expect(testOnlyIn(result.metafile)).toEqual([])
  }, 60_000)
})

describe("the CLI bundle's code cache", () => {
  const loader = join(repoRoot, "packages", "cli", "bin", "run-bundle.mjs")
  // A bundle as bundleCli writes it: the id line, then CommonJS (its process exits at once, and
  // the loader writes the cache as it exits).
  const bundleSaying = (word: string) => {
    const code = `console.log(${JSON.stringify(word)})\n`
    return `// tessera-bundle ${createHash("sha256").update(code).digest("hex")}\n${code}`
  }
  const run = (file: string) =>
    execFileSync(process.execPath, ["--input-type=module", "-e", `(await import(${JSON.stringify(loader)})).compileBundle(${JSON.stringify(file)}).run()`], {
      encoding: "utf8"
    }).trim()

  it("is written beside the bundle, and never used for another bundle of the same length", () => {
    const file = join(mkdtempSync(join(tmpdir(), "tessera-cache-")), "tessera.cjs")
    const first = bundleSaying("first")
    const second = bundleSaying("other")
    expect(second.length).toBe(first.length) // V8 alone would take the first one's cache for it
    writeFileSync(file, first)
    expect(run(file)).toBe("first")
    expect(existsSync(`${file}.cache`)).toBe(true)
    expect(run(file)).toBe("first")
    writeFileSync(file, second)
    expect(run(file)).toBe("other")
  }, 30_000)
})

describe("node's own code cache at start", () => {
  // The CLI sets a V8 flag before it compiles its bundle (run-bundle.mjs). V8 then rejects the
  // code cache node ships for its own modules, so each one loaded afterwards is compiled from
  // source; every built-in module a start needs is loaded before the flag (DECISIONS #490).
  const probe = join(repoRoot, "test", "cli", "fixtures", "after-flag-probe.cjs")

  it("no public built-in module loads after the CLI's V8 flag, through the first answer", async () => {
    const dir = tempDir()
    const out = join(dir, "probe.json")
    const cli = await startCli(["serve", "--port", "0", "--client-id", "probe"], {
      NODE_OPTIONS: `--require ${JSON.stringify(probe)}`,
      PROBE_OUT: out,
      TESSERA_CLIENT_SECRET: "probe-secret",
      TESSERA_DB: join(dir, "p.sqlite"),
      TESSERA_LOG: "off"
    })
    try {
      const url = /listening on (\S+)/.exec(cli.banner)![1]!
      const r = await fetch(`${url}/customers`, { headers: { authorization: `Basic ${btoa("probe:probe-secret")}` } })
      expect(r.status).toBe(200)
      await r.text()
    } finally {
      await cli.stop()
    }
    const { flagSet, after } = readJson(out) as { flagSet: boolean; after: Array<string> }
    expect(flagSet).toBe(true)
    expect(after.filter((m) => m.startsWith("NativeModule ") && !m.startsWith("NativeModule internal/"))).toEqual([])
  }, 30_000)
})
