import { describe, expect, it, vi } from "vitest"

// Both CSPRNGs replaced by one counter (byte k of all the bytes ever drawn is k mod 256), so every
// uuid's random digits are known in advance: a slot drawn twice, a byte skipped, a wrong bit at a
// refill or a wrong digit position all change the text. The process's first fill reads the
// kernel's generator (/dev/urandom), every later one node:crypto's (DECISIONS #521); `device`
// says what the device does in a test.
let drawn = 0
let refills = 0
let deviceReads = 0
let device: "full" | "short" | "missing" | "a plain file" = "full"
let deviceOpen = false
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
  const real = fs as unknown as Record<string, (...args: Array<unknown>) => unknown>
  return {
    ...fs,
    openSync: (path: string, ...rest: Array<unknown>) => {
      if (path !== "/dev/urandom") return real["openSync"]!(path, ...rest)
      if (device === "missing") throw Object.assign(new Error("ENOENT: no such file or directory"), { code: "ENOENT" })
      deviceOpen = true
      return DEVICE_FD
    },
    fstatSync: (fd: number, ...rest: Array<unknown>) => (fd === DEVICE_FD ? { isCharacterDevice: () => device !== "a plain file" } : real["fstatSync"]!(fd, ...rest)),
    readSync: (fd: number, buffer: Uint8Array, ...rest: Array<unknown>) => {
      if (fd !== DEVICE_FD) return real["readSync"]!(fd, buffer, ...rest)
      deviceReads++
      if (device === "short") return buffer.length - 1 // what it wrote is not used: node:crypto refills it all
      count(buffer)
      return buffer.length
    },
    closeSync: (fd: number) => (fd === DEVICE_FD ? void (deviceOpen = false) : real["closeSync"]!(fd))
  }
})

/** A fresh copy of ports/ids.ts (its pool not yet filled), with the counters reset. */
const freshIds = async (mode: typeof device) => {
  vi.resetModules()
  drawn = 0
  refills = 0
  deviceReads = 0
  device = mode
  return (await import("../../packages/core/src/ports/ids.ts")).timeOrderedUuid
}

const hex = (b: number) => b.toString(16).padStart(2, "0")

/** The uuid the layout says ten bytes make: 12 bits after the version, the variant's 2, 12, then 48. */
const expected = (ms: number, r: ReadonlyArray<number>) => {
  const t = ms.toString(16).padStart(12, "0")
  const d = r.map(hex).join("")
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${d.slice(0, 3)}-${(8 | (r[1]! & 3)).toString(16)}${d.slice(4, 7)}-${d.slice(8, 20)}`
}

describe("version-7 uuids from the pooled random bytes", () => {
  it("each uuid spends the next ten bytes of the pool, across refills, written at the layout's positions", async () => {
    const timeOrderedUuid = await freshIds("full")
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
    expect(deviceOpen).toBe(false)
  })

  // Without a device read in full, the first fill is node:crypto's, all of it: no byte of a short
  // read or of a plain file is used.
  for (const mode of ["short", "missing", "a plain file"] as const)
    it(`fills the first pool from node:crypto when the device is ${mode === "short" ? "read short" : mode}`, async () => {
      const timeOrderedUuid = await freshIds(mode)
      const uuid = timeOrderedUuid(1)
      expect(refills).toBe(1)
      expect(deviceReads).toBe(mode === "short" ? 1 : 0)
      expect(uuid).toBe(expected(1, Array.from({ length: 10 }, (_, j) => j)))
      expect(deviceOpen).toBe(false)
    })
})
