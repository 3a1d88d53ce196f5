/** Index of the first element of a sorted array greater than `x` (`strict`) or not less than it. */
export const bound = <T>(xs: ReadonlyArray<T>, x: T, strict: boolean): number => {
  let lo = 0
  let hi = xs.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (strict ? xs[mid]! <= x : xs[mid]! < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Record ids in listing (`seq`) order: a page after a position is a binary search and a slice,
 * whatever the size. New records have the highest seq, so the usual insert is a push.
 */
export class SeqList {
  constructor(
    readonly seqs: Array<number> = [],
    readonly ids: Array<string> = []
  ) {}

  get size(): number {
    return this.seqs.length
  }

  add(seq: number, id: string): void {
    const n = this.seqs.length
    if (n === 0 || this.seqs[n - 1]! < seq) {
      this.seqs.push(seq)
      this.ids.push(id)
      return
    }
    const at = bound(this.seqs, seq, false)
    if (this.seqs[at] === seq) return
    this.seqs.splice(at, 0, seq)
    this.ids.splice(at, 0, id)
  }

  delete(seq: number): void {
    const at = bound(this.seqs, seq, false)
    if (this.seqs[at] !== seq) return
    this.seqs.splice(at, 1)
    this.ids.splice(at, 1)
  }

  /** Ids after `afterSeq`, at most `n`. */
  after(afterSeq: number, n: number): ReadonlyArray<string> {
    const from = bound(this.seqs, afterSeq, true)
    return this.ids.slice(from, from + n)
  }

  /** Ids before `beforeSeq` (Infinity: the newest), newest first, at most `n`. */
  before(beforeSeq: number, n: number): ReadonlyArray<string> {
    const to = bound(this.seqs, beforeSeq, false)
    return this.ids.slice(Math.max(0, to - n), to).reverse()
  }

  copy(): SeqList {
    return new SeqList([...this.seqs], [...this.ids])
  }
}

/** The distinct keys of an ordered index, sorted, so a range is a binary search and a walk. */
export class SortedKeys {
  constructor(readonly keys: Array<string> = []) {}
  add(k: string): void {
    // Keys of new records (creation times) mostly sort last: a push, not a search and a splice.
    const n = this.keys.length
    if (n === 0 || this.keys[n - 1]! < k) {
      this.keys.push(k)
      return
    }
    const at = bound(this.keys, k, false)
    if (this.keys[at] !== k) this.keys.splice(at, 0, k)
  }
  delete(k: string): void {
    const at = bound(this.keys, k, false)
    if (this.keys[at] === k) this.keys.splice(at, 1)
  }
  /** Keys from the lower bound on, ascending; the caller stops at the upper bound. */
  *from(lower: string | undefined, strict: boolean): Iterable<string> {
    for (let i = lower === undefined ? 0 : bound(this.keys, lower, strict); i < this.keys.length; i++) yield this.keys[i]!
  }
  copy(): SortedKeys {
    return new SortedKeys([...this.keys])
  }
}
