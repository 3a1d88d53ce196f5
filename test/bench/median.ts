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
