import { describe, expect, it, vi } from "vitest"

// Both CSPRNGs replaced by one counter (byte k of all the bytes ever drawn is k mod 256), so every
// uuid's random digits are known in advance: a slot drawn twice, a byte skipped, a wrong bit at a
// refill or a wrong digit position all change the text. The process's first fill reads the
// kernel's generator (/dev/urandom), every later one node:crypto's (DECISIONS #521).
let drawn = 0
let refills = 0
let deviceReads = 0
const count = (buffer: Uint8Array) => {
  for (let i = 0; i < buffer.length; i++) buffer[i] = drawn++ & 0xff
}
vi.mock("node:crypto", async (original) => ({
  ...(await original<typeof import("node:crypto")>()),
  randomFillSync: <T extends Uint8Array>(buffer: T): T => {
    refills++
    count(buffer)
    return buffer
  }
}))
const DEVICE_FD = -42
vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>()
  return {
    ...fs,
    openSync: (path: string, ...rest: Array<never>) => (path === "/dev/urandom" ? DEVICE_FD : fs.openSync(path, ...rest)),
    readSync: (fd: number, buffer: Uint8Array, ...rest: Array<never>) => {
      if (fd !== DEVICE_FD) return fs.readSync(fd, buffer, ...rest)
      deviceReads++
      count(buffer)
      return buffer.length
    },
    closeSync: (fd: number) => (fd === DEVICE_FD ? undefined : fs.closeSync(fd))
  }
})

const { timeOrderedUuid } = await import("../../packages/core/src/ports/ids.ts")

const hex = (b: number) => b.toString(16).padStart(2, "0")

/** The uuid the layout says ten bytes make: 12 bits after the version, the variant's 2, 12, then 48. */
const expected = (ms: number, r: ReadonlyArray<number>) => {
  const t = ms.toString(16).padStart(12, "0")
  const d = r.map(hex).join("")
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${d.slice(0, 3)}-${(8 | (r[1]! & 3)).toString(16)}${d.slice(4, 7)}-${d.slice(8, 20)}`
}

describe("version-7 uuids from the pooled random bytes", () => {
  it("each uuid spends the next ten bytes of the pool, across refills, written at the layout's positions", () => {
    const times = [0x019542f5b3e7, 1, 0xfff, 0xffffffffffff, 0x019542f5b3e6]
    // 1,000 uuids spend 10,000 bytes: the 4 KiB pool is refilled (and never read past its end).
    const made = Array.from({ length: 1_000 }, (_, i) => ({ ms: times[i % times.length]!, uuid: timeOrderedUuid(times[i % times.length]) }))
    // Each refill draws 4,096 counter bytes; the uuids take the first 4,090 of each (409 × 10).
    const byteOf = (k: number) => ((Math.floor(k / 4090) * 4096 + (k % 4090)) & 0xff)
    made.forEach(({ ms, uuid }, i) => expect(uuid).toBe(expected(ms, Array.from({ length: 10 }, (_, j) => byteOf(i * 10 + j)))))
    expect(deviceReads).toBe(1)
    expect(refills).toBe(Math.ceil(1_000 / 409) - 1)
    // A uuid already handed out is its own string: later writes into the buffer do not reach it.
    expect(made[0]!.uuid).toBe(expected(times[0]!, Array.from({ length: 10 }, (_, j) => j)))
  })
})
