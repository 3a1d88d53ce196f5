// Cold start to the first 200: spawn of `tessera serve` (the bundled CLI, as `pnpm start` runs
// it, on a new SQLite file) until its answer to GET /customers arrives, beside the same for a
// bare node:http server script; and the same CLI laid out as its tarball installs it, which has
// no sources to check its bundle against (DECISIONS #530). The three alternate, the order rotated
// every round.
//
// NODE_EXTRA_CA_CERTS, when the environment sets it (this project's own machines do), makes
// every node process parse that CA bundle before it runs any script (~30 ms on those machines),
// paid by both processes alike, which flatters the ratio (DECISIONS #491). So the pairs are then
// also taken without it, and both figures are reported (the part takes twice as long).
//
// The bundle's V8 code cache is written by the first start that finds none, with what that
// process compiled up to its first answer (DECISIONS #500); one made after answering other routes
// (a test's first request) is larger, and every start reads all of it. So the part removes it
// first: its warm-up start writes it, as a first `pnpm start` and the README's curl would.
import { spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { join } from "node:path"
import { AUTH } from "./capture.ts"
import { compare, interleaved, ROUNDS, SHORT } from "./rounds.ts"
import { bareStart, buildBare, buildCli, CLI, CLI_BUNDLE, layOutInstalledCli, tempDir } from "./servers.ts"

/** Milliseconds from spawn to the first 200 (the answer read in full); `env` is the child's whole environment. */
const timeToFirst200 = async (args: ReadonlyArray<string>, env: Record<string, string>, ready: RegExp) => {
  const t0 = performance.now()
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] })
  try {
    const port = await new Promise<string>((resolve, reject) => {
      let out = ""
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString()
        const m = ready.exec(out)
        if (m) resolve(m[1]!)
      })
      child.once("exit", (code) => reject(new Error(`exited ${code} before listening: ${out}`)))
    })
    const r = await fetch(`http://127.0.0.1:${port}/2025-10-13/customers`, { headers: { authorization: AUTH } })
    await r.text()
    if (r.status !== 200) throw new Error(`first answer was ${r.status}`)
    return performance.now() - t0
  } finally {
    await new Promise<void>((r) => (child.exitCode !== null ? r() : (child.once("exit", () => r()), child.kill("SIGTERM"))))
  }
}

/**
 * Interleaved rounds of starts, in this environment less `dropped`: `tessera` as `pnpm start` runs
 * it in this checkout (the dev runner first checks the bundle against its sources), the same CLI
 * laid out as installed (`installedCli`), and the bare script; the order rotated every round.
 */
const pairs = async (dropped: ReadonlyArray<string>, installedCli: { readonly binary: string; readonly bundle: string }) => {
  const env = (own: Record<string, string>) => {
    const all: Record<string, string> = { ...(process.env as Record<string, string>), ...own }
    for (const name of dropped) delete all[name]
    return all
  }
  const serve = (binary: string) => () =>
    timeToFirst200([binary, "serve", "--port", "0", "--client-id", "bench"], env({ TESSERA_DB: join(tempDir("cold"), "c.sqlite"), TESSERA_CLIENT_SECRET: "bench-secret", TESSERA_LOG: "off" }), /listening on http:\/\/[^:]+:(\d+)/)
  const starts = { tessera: serve(CLI), installed: serve(installedCli.binary), bare: () => timeToFirst200([bareStart], env({}), /READY (\d+)/) }
  for (const bundle of [CLI_BUNDLE, installedCli.bundle]) rmSync(`${bundle}.cache`, { force: true })
  // Each writes its code cache, and warms the OS file cache; not counted.
  for (const start of Object.values(starts)) await start()
  // 24 rounds at the default 3: a start's time moves ±5% from one to the next on this project's
  // machines, and 12 left the median ratio ±0.1 from run to run (DECISIONS #523).
  const n = SHORT ? 1 : ROUNDS * 8
  const samples = await interleaved(["tessera", "installed", "bare"] as const, n, (name) => starts[name]())
  const c = compare(samples, "tessera", "bare")
  const i = compare(samples, "installed", "bare")
  return {
    pairs: n,
    tesseraMs: c.tessera,
    bareMs: c.baseline,
    ratio: c.ratio,
    installed: { tesseraMs: i.tessera, bareMs: i.baseline, ratio: i.ratio },
    samples: { ...c.samples, installed: i.samples.tessera }
  }
}

export const coldStart = async () => {
  const [installedCli] = await Promise.all([layOutInstalledCli(), buildCli(), buildBare()])
  const asIs = await pairs([], installedCli)
  const note =
    "spawn to the first 200 (GET /customers, answer read); tessera serve on a new SQLite file, as `pnpm start` runs it in this checkout and (installed) as an installed `tessera` does; ratio = median of per-round ratios (lower is better)"
  if ((process.env["NODE_EXTRA_CA_CERTS"] ?? "") === "") return { ...asIs, targetRatio: 2, note }
  const without = await pairs(["NODE_EXTRA_CA_CERTS"], installedCli)
  return {
    ...asIs,
    targetRatio: 2,
    withoutExtraCaCerts: without,
    note: `${note}; the environment sets NODE_EXTRA_CA_CERTS, which every node start pays for (the bare script's start: ${asIs.bareMs - without.bareMs} ms longer with it); withoutExtraCaCerts is the same pairs without it`
  }
}
