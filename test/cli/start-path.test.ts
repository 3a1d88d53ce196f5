// What `tessera serve` loads at start: nothing that only tests need (issue 15), whether through
// the CLI bundle or through a package's public entry point, and never a code cache of another bundle.
import { execFileSync, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { build, type Metafile } from "esbuild"
import { describe, expect, it } from "vitest"
import { BUNDLE_START, bundleCli, withoutFastCheck } from "../../scripts/bundle-cli.mjs"
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
  const loader = join(repoRoot, "packages", "cli", "bin", "run-bundle.cjs")
  const loaderArgs = (file: string) => ["--input-type=module", "-e", `(await import(${JSON.stringify(loader)})).compileBundle(${JSON.stringify(file)}).run()`]
  /** A bundle as bundleCli writes it: the id line, then CommonJS `source` as one function expression of the module's arguments. */
  const asBundle = (source: string) => {
    const code = `${BUNDLE_START}${source}\n})\n`
    return `// tessera-bundle ${createHash("sha256").update(code).digest("hex")}\n${code}`
  }
  // A server whose `/` answers `word` and whose `/other` runs a large function, compiled only when called.
  const serverBundle = (word = "1") =>
    asBundle(`const http = require("node:http")
const first = () => ${JSON.stringify(word)}
const other = (x) => { ${Array.from({ length: 300 }, (_, i) => `x = (x * ${i + 3} + ${i}) % 1000003;`).join(" ")} return x }
const server = http.createServer((req, res) => res.end(String(req.url === "/other" ? other(7) : first())))
server.listen(0, "127.0.0.1", () => console.log("PORT " + server.address().port))
process.on("SIGTERM", () => server.close())
`)
  /**
   * Starts the server bundle at `file`, asks for `paths` one after the other, waits `lingerMs`,
   * stops it; the answers, and the cache beside the bundle then (undefined when there is none).
   */
  const serveOnce = async (file: string, paths: ReadonlyArray<string>, lingerMs: number) => {
    const child = spawn(process.execPath, loaderArgs(file), { stdio: ["ignore", "pipe", "inherit"] })
    const exited = new Promise<void>((r) => child.once("exit", () => r()))
    const port = await new Promise<string>((resolve) => {
      let out = ""
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString()
        const m = /PORT (\d+)/.exec(out)
        if (m !== null) resolve(m[1]!)
      })
    })
    const answers: Array<string> = []
    for (const path of paths) answers.push(await (await fetch(`http://127.0.0.1:${port}${path}`)).text())
    await new Promise((r) => setTimeout(r, lingerMs))
    child.kill("SIGTERM")
    await exited
    return { answers, cache: existsSync(`${file}.cache`) ? readFileSync(`${file}.cache`) : undefined }
  }

  it("is written beside the bundle, and never used for another bundle of the same length", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "tessera-cache-")), "tessera.cjs")
    const first = serverBundle("first")
    const second = serverBundle("other")
    expect(second.length).toBe(first.length) // V8 alone would take the first one's cache for it
    writeFileSync(file, first)
    expect((await serveOnce(file, ["/"], 0)).answers).toEqual(["first"])
    expect(existsSync(`${file}.cache`)).toBe(true)
    expect((await serveOnce(file, ["/"], 0)).answers).toEqual(["first"])
    writeFileSync(file, second)
    expect((await serveOnce(file, ["/"], 0)).answers).toEqual(["other"])
  }, 30_000)

  it("holds what the start and its first answer compiled, not what later requests compile", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tessera-cache-"))
    const [one, two, other] = [join(dir, "one.cjs"), join(dir, "two.cjs"), join(dir, "other.cjs")] as const
    for (const file of [one, two, other]) writeFileSync(file, serverBundle())
    // One answer, then the exit: the cache of a start and its first answer (V8's bytes differ
    // from run to run, their amount does not).
    const firstOnly = (await serveOnce(one, ["/"], 0)).cache!.length
    // The first answer's route is in it: a start whose first answer was the large route's
    // leaves a cache larger by that route's compiled code.
    const withOther = (await serveOnce(other, ["/other"], 0)).cache!.length
    expect(withOther).toBeGreaterThan(firstOnly + 2000)
    // A second route asked right after the first answer, and the process kept past the 1.5 s at
    // which a cache used to be written: the second route's code is not in it.
    expect((await serveOnce(two, ["/", "/other"], 1700)).cache!.length).toBeLessThan((firstOnly + withOther) / 2)
  }, 30_000)

  it("refuses a bundle that is not one function expression, saying so", () => {
    const file = join(mkdtempSync(join(tmpdir(), "tessera-cache-")), "tessera.cjs")
    writeFileSync(file, '// tessera-bundle 0\nconsole.log("ran")\n')
    const run = () => execFileSync(process.execPath, loaderArgs(file), { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
    expect(run).toThrow(/is not a bundle of this CLI's format/)
  }, 30_000)

  it("is not written by a process that answers nothing and ends before 1.5 s (`--version`, a refused start)", () => {
    const file = join(mkdtempSync(join(tmpdir(), "tessera-cache-")), "tessera.cjs")
    writeFileSync(file, asBundle('console.log("0.0.0")\n'))
    expect(execFileSync(process.execPath, loaderArgs(file), { encoding: "utf8" }).trim()).toBe("0.0.0")
    expect(existsSync(`${file}.cache`)).toBe(false)
  }, 30_000)
})

describe("node's own code cache at start", () => {
  // A V8 flag set at run time makes V8 reject the code cache node ships for its own modules, and
  // node:v8 itself takes ~1.5 ms to load; the CLI once set one (the young generation's growth)
  // and no longer does (DECISIONS #515). node:v8 is the public way to set one.
  const probe = join(repoRoot, "test", "cli", "fixtures", "module-load-probe.cjs")

  it("a start loads neither node:v8, node:crypto nor the side libraries' file, through the first answer", async () => {
    const dir = tempDir()
    const out = join(dir, "probe.json")
    // The default secret, whose hash is in the source: a secret of one's own is hashed a second
    // after the listen (#520), which loads node:crypto, and a slow machine might answer later.
    const cli = await startCli(["serve", "--port", "0", "--client-id", "probe"], {
      NODE_OPTIONS: `--require ${JSON.stringify(probe)}`,
      PROBE_OUT: out,
      TESSERA_DB: join(dir, "p.sqlite"),
      TESSERA_LOG: "off"
    })
    try {
      const url = /listening on (\S+)/.exec(cli.banner)![1]!
      const r = await fetch(`${url}/customers`, { headers: { authorization: `Basic ${btoa("probe:sandbox-client-secret")}` } })
      expect(r.status).toBe(200)
      await r.text()
    } finally {
      await cli.stop()
    }
    const { loaded, required, loadedAtFirstAnswer } = readJson(out) as { loaded: Array<string>; required: Array<string>; loadedAtFirstAnswer: Array<string> }
    // The server's own modules are in the lists, so the probe saw the start.
    expect(loaded).toContain("NativeModule http")
    expect(loaded).not.toContain("NativeModule v8")
    // node:crypto loads at its first use (#521): the new platform's id comes from the kernel's
    // generator, and the secret's scrypt runs a second after the listen (#520).
    expect(loadedAtFirstAnswer).toContain("NativeModule http")
    expect(loadedAtFirstAnswer).not.toContain("NativeModule crypto")
    // The libraries no start runs are in a file beside the bundle (#517), required at first use.
    expect(required.some((f) => f.endsWith("run-bundle.cjs"))).toBe(true)
    expect(required.filter((f) => /tessera-libs-/.test(f))).toEqual([])
  }, 30_000)
})
