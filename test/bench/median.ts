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
