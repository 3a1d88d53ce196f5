import { Either, Schema } from "effect"
import type { InvalidInput } from "./errors.ts"
import { invalidInput } from "./field-errors.ts"
import type { Page } from "../ports/store.ts"
import { MAX_LIMIT } from "../limits.ts"


export const LimitParam = Schema.NumberFromString.pipe(
  Schema.int({ message: () => "must be an integer" }),
  Schema.between(1, MAX_LIMIT, { message: () => `must be between 1 and ${MAX_LIMIT}` })
)

/**
 * Cursors are opaque to clients: base64url of the position of the last record returned. A
 * cursor that does not decode is a 400 on `cursor`, never a silent first page.
 */
const toBase64Url = (ascii: string) => btoa(ascii).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
const fromBase64Url = (s: string): string => {
  try {
    return atob(s.replace(/-/g, "+").replace(/_/g, "/"))
  } catch {
    return ""
  }
}

export const encodeCursor = (seq: number): string => toBase64Url(`p${seq}`)

export const decodeCursor = (cursor: string | undefined): Either.Either<number | undefined, InvalidInput> => {
  if (cursor === undefined) return Either.right(undefined)
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? fromBase64Url(cursor) : ""
  const m = /^p(\d{1,15})$/.exec(text)
  return m === null
    ? Either.left(invalidInput([{ field: "cursor", message: "is not a cursor returned by this service" }]))
    : Either.right(Number(m[1]))
}

/** Query schema of `cursor`, so a bad cursor is reported with every other bad parameter. */
export const CursorParam = Schema.String.pipe(
  Schema.filter((s) => Either.isRight(decodeCursor(s)), { message: () => "is not a cursor returned by this service" })
)

export interface ListResponse<B> {
  readonly data: ReadonlyArray<B>
  readonly hasMore: boolean
  readonly nextCursor?: string
  readonly totalCount: number
}

export const toListResponse = <A, B>(page: Page<A>, view: (a: A) => B): ListResponse<B> => {
  const data = page.items.map(view)
  return page.hasMore && page.lastSeq !== undefined
    ? { data, hasMore: true, nextCursor: encodeCursor(page.lastSeq), totalCount: page.totalCount }
    : { data, hasMore: false, totalCount: page.totalCount }
}
