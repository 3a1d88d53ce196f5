/** A small CBOR encoder for the software authenticator: ints, byte and text strings, maps. */
export type CborIn = number | string | Uint8Array | Map<CborIn, CborIn>

const head = (major: number, n: number): Array<number> => {
  if (n < 24) return [(major << 5) | n]
  if (n < 0x100) return [(major << 5) | 24, n]
  if (n < 0x10000) return [(major << 5) | 25, n >> 8, n & 0xff]
  return [(major << 5) | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
}

export const encodeCbor = (v: CborIn): Uint8Array => {
  const out: Array<number> = []
  const put = (x: CborIn): void => {
    if (typeof x === "number") out.push(...(x >= 0 ? head(0, x) : head(1, -1 - x)))
    else if (typeof x === "string") {
      const b = Buffer.from(x, "utf8")
      out.push(...head(3, b.length), ...b)
    } else if (x instanceof Uint8Array) out.push(...head(2, x.length), ...x)
    else {
      out.push(...head(5, x.size))
      for (const [k, val] of x) {
        put(k)
        put(val)
      }
    }
  }
  put(v)
  return Uint8Array.from(out)
}
