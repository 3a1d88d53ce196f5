import { Either } from "effect"
import type { DomainError } from "../domain/envelope.ts"
import { InvalidAmount, InvalidStateTransition } from "../domain/errors.ts"
import type { LedgerEntry } from "../domain/ledger/ledger.ts"
import type {
  OperationLedger,
  StablecoinOperationEvent,
  StablecoinOperationRecord,
  StablecoinOperationStatus
} from "../domain/stablecoins/records.ts"
import { rfc3339 } from "../domain/time.ts"

/**
 * A stablecoin mint or burn, pure (DECISIONS #357, #358). Statuses and the events that move them:
 *
 *   CREATED ──Submit──▶ PENDING_FUNDING (a wire mint, an external-wallet burn: waits for money)
 *           └─Submit──▶ PENDING_PROVIDER (everything else: handed to the provider)
 *   PENDING_FUNDING ──FundsReceived──▶ PROCESSING     PENDING_FUNDING ──Expire (at expiresAt)──▶ EXPIRED
 *   PENDING_PROVIDER ──ProviderAccepted──▶ PROCESSING
 *   PENDING_PROVIDER | PROCESSING ──Fail──▶ FAILED    PROCESSING ──Complete──▶ COMPLETED
 *
 * COMPLETED, FAILED and EXPIRED are terminal. Each step names the ledger movements it causes: the
 * submission takes the operation's hold (a burn's refusal when the stablecoin's reserve cannot
 * pay it out is here: 400 INVALID_AMOUNT, reason INSUFFICIENT_BALANCE), completion posts the
 * settlement, failure and expiry give the hold back. Every movement sums to zero per currency.
 */

export interface LedgerMove {
  readonly kind: string
  readonly entries: ReadonlyArray<LedgerEntry>
}

export interface OperationStep {
  readonly state: StablecoinOperationRecord
  readonly moves: ReadonlyArray<LedgerMove>
}

export const terminalStatuses: ReadonlyArray<StablecoinOperationStatus> = ["COMPLETED", "FAILED", "EXPIRED"]
export const isTerminal = (s: StablecoinOperationStatus): boolean => terminalStatuses.includes(s)

const holdMove = (l: OperationLedger, kind: "STABLECOIN_HOLD" | "STABLECOIN_RELEASE"): ReadonlyArray<LedgerMove> => {
  if (l.hold === undefined) return []
  const { account, currency, amount } = l.hold
  const sign = kind === "STABLECOIN_HOLD" ? 1 : -1
  return [
    {
      kind,
      entries: [
        { account, currency, bucket: "available", amount: -amount * sign },
        { account, currency, bucket: "held", amount: amount * sign }
      ]
    }
  ]
}

const refused = (o: StablecoinOperationRecord, event: StablecoinOperationEvent): Either.Either<OperationStep, DomainError> =>
  Either.left(
    new InvalidStateTransition({
      message: `Stablecoin operation ${o.id} is ${o.status}: ${event._tag} does not apply`,
      details: { stablecoinOperationId: o.id, status: o.status, event: event._tag }
    })
  )

export const stablecoinOperationStep = (
  o: StablecoinOperationRecord,
  event: StablecoinOperationEvent,
  now: number
): Either.Either<OperationStep, DomainError> => {
  const moved = (status: StablecoinOperationStatus, moves: ReadonlyArray<LedgerMove> = [], extra: Partial<StablecoinOperationRecord> = {}) =>
    Either.right<OperationStep>({ state: { ...o, ...extra, status, updatedAt: rfc3339(now) }, moves })
  switch (event._tag) {
    case "Submit": {
      if (o.status !== "CREATED") return refused(o, event)
      const hold = o.ledger.hold
      // A burn pays out of the reserve the mints built: no more than it holds, less what other burns hold.
      if (o.operationType === "BURN" && hold !== undefined && event.reserveAvailable !== undefined && event.reserveAvailable < hold.amount)
        return Either.left(
          new InvalidAmount({
            message: `Insufficient balance: stablecoin ${o.stablecoinId} has ${event.reserveAvailable} ${hold.currency} of reserve free to redeem, ${hold.amount} needed`,
            details: { reason: "INSUFFICIENT_BALANCE", stablecoinId: o.stablecoinId, currency: hold.currency, available: event.reserveAvailable, requested: hold.amount }
          })
        )
      return moved(event.awaitFunding ? "PENDING_FUNDING" : "PENDING_PROVIDER", holdMove(o.ledger, "STABLECOIN_HOLD"))
    }
    case "FundsReceived":
      return o.status === "PENDING_FUNDING" ? moved("PROCESSING") : refused(o, event)
    case "ProviderAccepted":
      return o.status === "PENDING_PROVIDER" ? moved("PROCESSING") : refused(o, event)
    case "Complete":
      return o.status === "PROCESSING" ? moved("COMPLETED", [{ kind: `STABLECOIN_${o.operationType}`, entries: o.ledger.settle }]) : refused(o, event)
    case "Fail":
      return o.status === "PENDING_PROVIDER" || o.status === "PROCESSING"
        ? moved("FAILED", holdMove(o.ledger, "STABLECOIN_RELEASE"), { failureReason: event.reason })
        : refused(o, event)
    case "Expire":
      // Only once its funding window closed, on the engine's clock.
      return o.status === "PENDING_FUNDING" && o.expiresAt !== undefined && now >= Date.parse(o.expiresAt)
        ? moved("EXPIRED", holdMove(o.ledger, "STABLECOIN_RELEASE"))
        : refused(o, event)
  }
}

/**
 * What a completed operation moves, before any hold (#358). Token amounts are in the stablecoin's
 * smallest unit, in the ledger currency `tokenCurrency` (`SC:<symbol>`: a bare symbol could be a
 * real currency's); fiat amounts in cents of its base currency. A mint takes `fiat` from the funding
 * account into the stablecoin's reserve and issues `tokens` from its supply to the holders
 * outside Grid; a burn does the reverse, paying the reserve out to the bank account.
 */
export const ledgerPlan = (args: {
  readonly type: "MINT" | "BURN"
  readonly stablecoinId: string
  readonly tokenCurrency: string
  readonly tokens: number
  readonly fiatCurrency: string
  readonly fiat: number
  /** MINT: the account the fiat comes from; BURN: the bank account it goes to. */
  readonly fiatAccount: string
  /** A mint's fiat source is an internal account: its money is held from submission to completion. */
  readonly holdFiatSource: boolean
}): OperationLedger => {
  const { stablecoinId: id, tokens, fiat, fiatCurrency: fc, tokenCurrency: tc } = args
  const reserve = `${id}:reserve`
  const supply = `${id}:supply`
  const circulating = `${id}:circulating`
  if (args.type === "MINT")
    return {
      ...(args.holdFiatSource ? { hold: { account: args.fiatAccount, currency: fc, amount: fiat } } : {}),
      settle: [
        { account: args.fiatAccount, currency: fc, bucket: args.holdFiatSource ? "held" : "available", amount: -fiat },
        { account: reserve, currency: fc, bucket: "available", amount: fiat },
        { account: supply, currency: tc, bucket: "available", amount: -tokens },
        { account: circulating, currency: tc, bucket: "available", amount: tokens }
      ]
    }
  return {
    hold: { account: reserve, currency: fc, amount: fiat },
    settle: [
      { account: reserve, currency: fc, bucket: "held", amount: -fiat },
      { account: args.fiatAccount, currency: fc, bucket: "available", amount: fiat },
      { account: circulating, currency: tc, bucket: "available", amount: -tokens },
      { account: supply, currency: tc, bucket: "available", amount: tokens }
    ]
  }
}
