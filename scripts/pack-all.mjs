#!/usr/bin/env node
// `pnpm run pack-all`: builds every public package from a clean dist/ and writes one tarball per
// package into artifacts/. pnpm's pack applies each package's publishConfig (exports pointing at
// dist/) and turns `workspace:^` into a real range; this script checks both before it succeeds,
// and prints a JSON summary (name, file, bytes) on stdout.
import { execFileSync } from "node:child_process"
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { basename, dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const artifacts = join(root, "artifacts")
const dirs = readdirSync(join(root, "packages")).filter((d) => {
  const pkg = JSON.parse(readFileSync(join(root, "packages", d, "package.json"), "utf8"))
  return pkg.private !== true
})

// The pnpm that runs this script (npm_execpath), else the pinned one through npx.
const pnpm = (args, cwd) =>
  process.env.npm_execpath?.includes("pnpm")
    ? execFileSync(process.execPath, [process.env.npm_execpath, ...args], { cwd, stdio: ["ignore", "pipe", "inherit"] })
    : execFileSync("npx", ["-y", "pnpm@10.34.9", ...args], { cwd, stdio: ["ignore", "pipe", "inherit"] })

for (const d of dirs) rmSync(join(root, "packages", d, "dist"), { recursive: true, force: true })
rmSync(artifacts, { recursive: true, force: true })
mkdirSync(artifacts)
execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-b", "packages/cli/tsconfig.build.json"], {
  cwd: root,
  stdio: "inherit"
})

// The published CLI starts from one bundle, as a checkout's does (scripts/bundle-cli.mjs).
const { bundleCli } = await import("./bundle-cli.mjs")
const { sideFile } = await bundleCli({ outfile: join(root, "packages", "cli", "dist", "tessera.cjs"), sqlite: "package" })
// The libraries no start runs are in a file beside it, which the tarball must carry too (DECISIONS #517).
const cliFiles = ["package/dist/tessera.cjs", ...(sideFile === undefined ? [] : [`package/dist/${basename(sideFile)}`])]

const packed = []
for (const d of dirs) {
  const dir = join(root, "packages", d)
  copyFileSync(join(root, "LICENSE"), join(dir, "LICENSE"))
  try {
    pnpm(["pack", "--pack-destination", artifacts], dir)
  } finally {
    rmSync(join(dir, "LICENSE"), { force: true })
  }
}
for (const file of readdirSync(artifacts).filter((f) => f.endsWith(".tgz")).sort()) {
  const manifest = execFileSync("tar", ["-xOzf", join(artifacts, file), "package/package.json"], { encoding: "utf8" })
  const pkg = JSON.parse(manifest)
  const deps = { ...pkg.dependencies, ...pkg.peerDependencies }
  const bad = Object.entries(deps).filter(([, v]) => String(v).startsWith("workspace:"))
  if (bad.length > 0) throw new Error(`${file}: workspace ranges left in the tarball: ${bad.map(([k]) => k).join(", ")}`)
  if (JSON.stringify(pkg.exports ?? {}).includes("/src/")) throw new Error(`${file}: exports still point at src/`)
  if (pkg.bin !== undefined) {
    const listed = execFileSync("tar", ["-tzf", join(artifacts, file)], { encoding: "utf8" }).split("\n")
    for (const f of cliFiles) if (!listed.includes(f)) throw new Error(`${file}: the CLI bundle's ${f.slice("package/".length)} is missing`)
  }
  packed.push({ name: pkg.name, version: pkg.version, file: `artifacts/${file}`, bytes: statSync(join(artifacts, file)).size })
}
process.stdout.write(JSON.stringify({ packed }, null, 2) + "\n")
