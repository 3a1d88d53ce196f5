import * as fc from "fast-check"

/**
 * The fuzzer's randomness: one seeded generator for every choice, so a run is reproducible from
 * its seed, and batches of fast-check samples (drawn with seeds from that generator) for the
 * values fast-check is good at making awkward: JSON of every shape, full-unicode and binary
 * strings, edge-case numbers.
 */
export class Rand {
  private a: number
  private b: number
  private c: number
  private d: number
  constructor(seed: number) {
    this.a = 0x9e3779b9
    this.b = 0x243f6a88
    this.c = 0xb7e15162
    this.d = seed >>> 0
    for (let i = 0; i < 15; i++) this.next()
  }
  /** sfc32: small, fast, and good enough to pick among cases. */
  next(): number {
    this.a >>>= 0, this.b >>>= 0, this.c >>>= 0, this.d >>>= 0
    const t = (this.a + this.b) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.d = (this.d + 1) | 0
    const r = (t + this.d) | 0
    this.c = (this.c + r) | 0
    return (r >>> 0) / 4294967296
  }
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<A>(items: ReadonlyArray<A>): A {
    return items[this.int(items.length)]!
  }
}

const BATCH = 256

const arbitraries = {
  json: fc.jsonValue({ maxDepth: 4 }),
  unicodeJson: fc.jsonValue({ maxDepth: 3, stringUnit: "grapheme" }),
  object: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })),
  text: fc.oneof(fc.string(), fc.string({ unit: "binary", maxLength: 64 }), fc.string({ unit: "grapheme", maxLength: 32 })),
  number: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 53)))
} as const

type Kind = keyof typeof arbitraries
type Sample<K extends Kind> = (typeof arbitraries)[K] extends fc.Arbitrary<infer A> ? A : never

/** Values fast-check draws, refilled in batches so a run of 100,000 requests stays cheap. */
export class Corpus {
  private readonly batches = new Map<Kind, { values: ReadonlyArray<unknown>; next: number }>()
  constructor(private readonly rand: Rand) {}
  draw<K extends Kind>(kind: K): Sample<K> {
    let batch = this.batches.get(kind)
    if (batch === undefined || batch.next >= batch.values.length) {
      batch = { values: fc.sample(arbitraries[kind] as fc.Arbitrary<unknown>, { seed: this.rand.int(2 ** 31), numRuns: BATCH }), next: 0 }
      this.batches.set(kind, batch)
    }
    return batch.values[batch.next++] as Sample<K>
  }
}
