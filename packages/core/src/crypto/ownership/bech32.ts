import { bech32, bech32m } from "@scure/base"

/** Bech32 (BIP-173) and bech32m (BIP-350), through @scure/base: decoding that tells the variant. */
export type Bech32Variant = "bech32" | "bech32m"

// Picked at each call rather than kept in an object made at load: the CLI bundle loads
// @scure/base at its first use (scripts/bundle-cli.mjs, DECISIONS #475).
const codecOf = (variant: Bech32Variant) => (variant === "bech32" ? bech32 : bech32m)

/** Decodes a whole bech32/bech32m string (case-insensitive, not mixed), or undefined. */
export const bech32Decode = (s: string, limit = 90): { readonly hrp: string; readonly words: Array<number>; readonly variant: Bech32Variant } | undefined => {
  for (const variant of ["bech32", "bech32m"] as const) {
    try {
      const d = codecOf(variant).decode(s as `${string}1${string}`, limit)
      return { hrp: d.prefix, words: [...d.words], variant }
    } catch {
      // Not this variant's checksum (or not bech32 at all): try the next.
    }
  }
  return undefined
}

export const bech32Encode = (hrp: string, words: ReadonlyArray<number>, variant: Bech32Variant): string =>
  codecOf(variant).encode(hrp, [...words], false)

/** Regroups bits (8 → 5 or 5 → 8); undefined on invalid padding. */
export const convertBits = (data: ReadonlyArray<number>, from: number, to: number, pad: boolean): Array<number> | undefined => {
  try {
    if (from === 8 && to === 5 && pad) return [...bech32.toWords(Uint8Array.from(data))]
    if (from === 5 && to === 8 && !pad) {
      const bytes = bech32.fromWordsUnsafe([...data])
      return bytes === undefined ? undefined : [...bytes]
    }
  } catch {
    return undefined
  }
  throw new Error(`convertBits: ${from} → ${to} (pad ${pad}) is not a bech32 regrouping`)
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
