import { Either } from "effect"
import type { DomainError } from "../domain/envelope.ts"

/** An event a transition asks the operation to publish (the Notifier's `publish` input). */
export interface Emitted {
  readonly type: string
  readonly resourceId: string
  readonly data: unknown
}

/**
 * What one step of a machine decides: the next state, the events that state change emits, and
 * optionally an answer to give *after* the next state is persisted. The answer is how a machine
 * says "save this, then fail" (a wrong OTP code counts and then answers 401/429; a late or bad
 * ownership signature sets UNVERIFIED and answers 400); an error in the Either's left persists
 * nothing.
 */
export interface Transition<S> {
  readonly state: S
  readonly emit: ReadonlyArray<Emitted>
  readonly answer?: DomainError
}

/** Every machine has this shape: pure, total, and given the time rather than reading a clock. */
export type Machine<S, E> = (state: S, event: E, now: number) => Either.Either<Transition<S>, DomainError>

/** A transition without events or deferred answer. */
export const to = <S>(state: S, emit: ReadonlyArray<Emitted> = []): Transition<S> => ({ state, emit })

export const next = <S>(state: S, emit: ReadonlyArray<Emitted> = []): Either.Either<Transition<S>, DomainError> => Either.right(to(state, emit))

/** Persist `state` (and publish `emit`), then answer `answer`. */
export const thenFail = <S>(state: S, answer: DomainError, emit: ReadonlyArray<Emitted> = []): Either.Either<Transition<S>, DomainError> =>
  Either.right({ state, emit, answer })

export const refuse = <S = never>(error: DomainError): Either.Either<Transition<S>, DomainError> => Either.left(error)
