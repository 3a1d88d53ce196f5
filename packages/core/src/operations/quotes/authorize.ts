import { Clock, Effect, Either } from "effect"
import { Quotes } from "../../domain/collections.ts"
import { Conflict, RateLimited } from "../../domain/errors.ts"
import type { DomainError } from "../../domain/envelope.ts"
import { decodeBody, invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { type QuoteRecord, quoteView } from "../../domain/quotes/quote.ts"
import { NO_CONTENT, reply } from "../../domain/reply.ts"
import { CHALLENGE_INTERVAL_MS } from "../../limits.ts"
import { quoteMachine, quoteStatusAt } from "../../machines/quote.ts"
import { challengeMachine, challengeOpen } from "../../machines/sca-challenge.ts"
import { accountLocked, isLocked } from "../../machines/sca-session.ts"
import { Store } from "../../ports/store.ts"
import { requireSession, saveProfile, scaAppliesTo, scaNotRequired } from "../sca/customer.ts"
import { judgeProof, proofProblems, ScaAuthorization, withSignCount } from "../sca/proof.ts"
import { loadQuote, startExecution } from "./execute.ts"

const noPendingChallenge = (quote: QuoteRecord, now: number) =>
  new Conflict({
    message: "The quote has no SCA challenge pending",
    details: { reason: "NO_PENDING_CHALLENGE", status: quoteStatusAt(quote, now) }
  })

/** The quote of an SCA customer with a challenge to answer now, or the 409 that says why not. */
const pendingQuote = (platform: PlatformRecord, quoteId: string, now: number) =>
  Effect.gen(function* () {
    const quote = yield* loadQuote(platform, quoteId)
    if (!(yield* scaAppliesTo(platform, quote.customerId))) return yield* scaNotRequired()
    if (quoteStatusAt(quote, now) !== "PENDING_AUTHORIZATION" || quote.scaChallenge === undefined) return yield* noPendingChallenge(quote, now)
    return { quote, challenge: quote.scaChallenge }
  })

/**
 * POST /quotes/{quoteId}/authorize (DECISIONS #230, #232): the SCA proof for the quote's
 * challenge. It needs the customer's SCA session (409 SCA_SESSION_REQUIRED) and an unlocked
 * login (423). Right, the quote is authorized: an execution it was held for proceeds at once, a
 * real-time funded quote shows its funding instructions. Wrong, 400, counted; the fifth wrong
 * proof withdraws the challenge (429 RATE_LIMITED).
 */
export const authorizeQuote = (platform: PlatformRecord, quoteId: string, body: unknown) =>
  Effect.gen(function* () {
    const decoded = decodeBody(ScaAuthorization)(body)
    if (Either.isLeft(decoded)) return yield* decoded.left
    const problems = proofProblems(decoded.right)
    if (problems.length > 0) return yield* invalidInput(problems)
    const store = yield* Store
    const done = yield* store.transaction(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const { quote, challenge } = yield* pendingQuote(platform, quoteId, now)
        const profile = yield* requireSession(platform, quote.customerId!)
        if (isLocked(profile, now)) return yield* accountLocked(profile, now)
        const judged = judgeProof(profile, challenge, decoded.right)
        const answered = yield* challengeMachine(challenge, { _tag: "Answer", proof: judged.proof }, now)
        if (answered.answer !== undefined) {
          // Counted, then answered: the attempt is kept even though the call fails.
          yield* store.put(Quotes, platform.id, { ...quote, scaChallenge: answered.state! })
          const answer: DomainError =
            (answered.answer.details as { reason?: string } | undefined)?.reason === "SCA_CHALLENGE_WITHDRAWN"
              ? new RateLimited({ message: answered.answer.message, details: { reason: "SCA_CHALLENGE_WITHDRAWN" }, retryAfterSeconds: Math.max(1, Math.ceil((quote.expiresAtMs - now) / 1000)) })
              : answered.answer
          return { answer }
        }
        yield* saveProfile(platform)(withSignCount(profile, judged.signCount))
        const stepped = yield* quoteMachine(quote, { _tag: "Authorize" }, now)
        const { scaChallenge: _done, ...rest } = quote
        const authorized: QuoteRecord = { ...rest, status: stepped.state.status, authorized: true }
        yield* store.put(Quotes, platform.id, authorized)
        const view = quote.authorizationFor === "EXECUTE" ? yield* startExecution(platform, authorized, now) : quoteView(authorized, now)
        return { view }
      })
    )
    if ("answer" in done) return yield* Effect.fail(done.answer)
    return reply(200, done.view)
  })

/**
 * POST /quotes/{quoteId}/authorize/resend: sends the SMS code of the pending challenge again.
 * The challenge stays the same and its expiry is not extended (reference); 409 for a passkey
 * challenge or none pending; 429 within 30 s of the last send.
 */
export const resendQuoteScaCode = (platform: PlatformRecord, quoteId: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const { quote, challenge } = yield* pendingQuote(platform, quoteId, now)
        if (challenge.factor !== "SMS_OTP")
          return yield* new Conflict({ message: "Only an SMS_OTP challenge's code can be re-sent", details: { reason: "NOT_AN_SMS_CHALLENGE", factor: challenge.factor } })
        if (!challengeOpen(challenge, now)) return yield* noPendingChallenge(quote, now)
        const wait = challenge.sentAtMs + CHALLENGE_INTERVAL_MS - now
        if (wait > 0) return yield* new RateLimited({ message: "The code was sent moments ago; wait before asking again", details: { reason: "RESEND_TOO_SOON" }, retryAfterSeconds: Math.ceil(wait / 1000) })
        yield* store.put(Quotes, platform.id, { ...quote, scaChallenge: { ...challenge, sentAtMs: now } })
        return NO_CONTENT
      })
    )
  })
