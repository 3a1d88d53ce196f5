/** Bech32 (BIP-173) and bech32m (BIP-350): decoding and encoding of data-part 5-bit words. */
const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
export type Bech32Variant = "bech32" | "bech32m"
const CONST: Record<Bech32Variant, number> = { bech32: 1, bech32m: 0x2bc830a3 }

const polymod = (values: ReadonlyArray<number>) => {
  let chk = 1
  for (const v of values) {
    const top = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ v
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i]!
  }
  return chk >>> 0
}

const hrpExpand = (hrp: string) => [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31)]

/** Decodes a whole bech32/bech32m string (case-insensitive, not mixed), or undefined. */
export const bech32Decode = (s: string, limit = 90): { readonly hrp: string; readonly words: Array<number>; readonly variant: Bech32Variant } | undefined => {
  if (s.length > limit || (s !== s.toLowerCase() && s !== s.toUpperCase())) return undefined
  const lower = s.toLowerCase()
  const sep = lower.lastIndexOf("1")
  if (sep < 1 || sep + 7 > lower.length) return undefined
  const hrp = lower.slice(0, sep)
  const words: Array<number> = []
  for (const c of lower.slice(sep + 1)) {
    const v = CHARSET.indexOf(c)
    if (v < 0) return undefined
    words.push(v)
  }
  const check = polymod([...hrpExpand(hrp), ...words]) >>> 0
  const variant = check === CONST.bech32 ? "bech32" : check === CONST.bech32m >>> 0 ? "bech32m" : undefined
  return variant === undefined ? undefined : { hrp, words: words.slice(0, -6), variant }
}

export const bech32Encode = (hrp: string, words: ReadonlyArray<number>, variant: Bech32Variant): string => {
  const values = [...hrpExpand(hrp), ...words, 0, 0, 0, 0, 0, 0]
  const mod = polymod(values) ^ CONST[variant]
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31)
  return `${hrp}1${[...words, ...checksum].map((w) => CHARSET[w]).join("")}`
}

/** Regroups bits (8 → 5 or 5 → 8); undefined on invalid padding. */
export const convertBits = (data: ReadonlyArray<number>, from: number, to: number, pad: boolean): Array<number> | undefined => {
  let acc = 0
  let bits = 0
  const out: Array<number> = []
  const max = (1 << to) - 1
  for (const v of data) {
    if (v >> from !== 0) return undefined
    acc = (acc << from) | v
    bits += from
    while (bits >= to) {
      bits -= to
      out.push((acc >> bits) & max)
    }
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & max)
  } else if (bits >= from || ((acc << (to - bits)) & max) !== 0) return undefined
  return out
}

/** A segwit address (`bc1…`): witness version and program, with the variant BIP-350 requires. */
export const decodeSegwit = (address: string, hrp: string): { readonly version: number; readonly program: Uint8Array } | undefined => {
  const d = bech32Decode(address)
  if (d === undefined || d.hrp !== hrp || d.words.length === 0) return undefined
  const version = d.words[0]!
  if (version > 16 || d.variant !== (version === 0 ? "bech32" : "bech32m")) return undefined
  const program = convertBits(d.words.slice(1), 5, 8, false)
  if (program === undefined || program.length < 2 || program.length > 40) return undefined
  if (version === 0 && program.length !== 20 && program.length !== 32) return undefined
  return { version, program: Uint8Array.from(program) }
}
