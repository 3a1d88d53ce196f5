import * as Errors from "./errors.ts"

type ErrorClass = (typeof Errors)[keyof typeof Errors]

/** Every error the engine can answer with, as instances. */
export type DomainError = InstanceType<ErrorClass>

/**
 * The catalogue as data: each code with its HTTP status, for docs, tests and the checker. Marked
 * pure so that a bundle that never reads it (the CLI's) leaves it out: building it makes an
 * instance of each of the ~85 classes, ~1 ms of every start (DECISIONS #499).
 */
export const catalogue: ReadonlyArray<{ readonly code: string; readonly status: number }> = /* @__PURE__ */ (() =>
  Object.values(Errors).map((C) => {
    // The classes carry `status` as an instance field; build a throwaway to read it once, without
    // validating it (`true`): that would compile a validator per class at every start.
    const probe = new (C as unknown as new (a: Record<string, unknown>, disableValidation: boolean) => DomainError)(
      { message: "", retryAfterSeconds: 0, allow: [] },
      true
    )
    return { code: probe._tag, status: probe.status }
  }))()

export const isDomainError = (u: unknown): u is DomainError =>
  typeof u === "object" &&
  u !== null &&
  "_tag" in u &&
  "status" in u &&
  typeof (u as { status: unknown }).status === "number" &&
  u instanceof Error

/** The spec's error body `{status, code, message, details}`. */
export interface ErrorEnvelope {
  readonly status: number
  readonly code: string
  readonly message: string
  readonly details: Record<string, unknown>
  readonly reason?: string
}

export const envelopeOf = (e: DomainError): ErrorEnvelope => {
  const details = e.details ?? {}
  // DECISIONS #7: a sandbox 401 reason is readable at the top level as well as in details.
  const reason = typeof details["reason"] === "string" ? (details["reason"] as string) : undefined
  return reason === undefined
    ? { status: e.status, code: e._tag, message: e.message, details }
    : { status: e.status, code: e._tag, message: e.message, details, reason }
}

export const internalErrorEnvelope = (): ErrorEnvelope => ({
  status: 500,
  code: "INTERNAL_ERROR",
  message: "Internal error",
  details: {}
})
