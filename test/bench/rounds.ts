// How every HTTP figure is taken: each target once per round, the order rotated every round (so
// no target always runs first, or right after the same neighbour, on a shared 2-core machine),
// rounds repeated; a figure is the median of its rounds and a ratio is the median of the
// per-round ratios against the baseline measured in the same round.

/** Short mode (`pnpm bench --short` or BENCH_SHORT=1): every part runs, briefly, for CI. */
export const SHORT = process.env["BENCH_SHORT"] === "1" || process.argv.includes("--short")
/** Seconds per measurement (BENCH_SECONDS). */
export const SECONDS = Number(process.env["BENCH_SECONDS"] ?? (SHORT ? 0.4 : 5))
/** Rounds per interleaved comparison (BENCH_ROUNDS; at least 3 unless short). */
export const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? (SHORT ? 1 : 3))
/** Concurrent clients on every HTTP target (the targets are at 10 or more). */
export const CLIENTS = 10

export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  if (s.length === 0) return Number.NaN
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

export const round3 = (x: number) => Math.round(x * 1000) / 1000

/** Each name measured once per round, the order rotated by one each round; samples by name. */
export const interleaved = async <N extends string>(names: ReadonlyArray<N>, rounds: number, measure: (name: N, round: number) => Promise<number>) => {
  const samples = Object.fromEntries(names.map((n) => [n, [] as Array<number>])) as Record<N, Array<number>>
  for (let r = 0; r < rounds; r++) {
    const order = names.map((_, i) => names[(i + r) % names.length]!)
    for (const n of order) samples[n].push(await measure(n, r))
  }
  return samples
}

/** A figure beside its baseline: both medians, the median of per-round ratios, and the samples. */
export const compare = (samples: Record<string, ReadonlyArray<number>>, target: string, baseline: string) => {
  const t = samples[target]!
  const b = samples[baseline]!
  return {
    tessera: Math.round(median(t)),
    baseline: Math.round(median(b)),
    ratio: round3(median(t.map((x, i) => x / b[i]!))),
    samples: { tessera: t.map(Math.round), baseline: b.map(Math.round) }
  }
}

/** Median wall time in ms (3 decimals) of `runs` synchronous calls of `f`, after 20 warm-up calls. */
export const medianMs = (f: () => unknown, runs: number): number => {
  for (let i = 0; i < 20; i++) f()
  const times: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    f()
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return Math.round(times[Math.floor(runs / 2)]! * 1000) / 1000
}

/**
 * Median time of one call in µs (2 decimals), each sample timing `batch` calls in a row: a call
 * of a microsecond or less is below what one `performance.now()` pair resolves.
 */
export const medianPerCallUs = (f: () => unknown, samples: number, batch = 50): number => {
  for (let i = 0; i < 20; i++) f()
  const times: Array<number> = []
  for (let i = 0; i < samples; i++) {
    const t = performance.now()
    for (let k = 0; k < batch; k++) f()
    times.push((performance.now() - t) / batch)
  }
  times.sort((a, b) => a - b)
  return Math.round(times[Math.floor(samples / 2)]! * 100_000) / 100
}
