import { collection, sortableInstant } from "../../ports/store.ts"
import type { PlanStep } from "./outcome-plan.ts"
import type { StablecoinPlanStep } from "../stablecoins/records.ts"

/**
 * A step of a transaction's outcome waiting for its time on the engine's clock. Only the next
 * step of a transaction is due at any moment; applying it writes the one after (`rest`), so the
 * steps of one transaction apply in order whatever the clock jumps over.
 */
export type DueStepRecord = PaymentDueStep | CardDueStep | StablecoinOperationDueStep | StablecoinLinkDueStep

interface DueBase {
  readonly id: string
  /** The platform the transaction belongs to. */
  readonly scope: string
  /** The resource the step applies to: a payment's id, a card's or a card transaction's. */
  readonly transactionId: string
  readonly dueAtMs: number
}

export interface PaymentDueStep extends DueBase {
  readonly kind?: undefined
  readonly step: PlanStep
  readonly rest: ReadonlyArray<PlanStep>
}

/**
 * A card's delayed sandbox outcome (DECISIONS #203, #208): a card's activation by the issuer, or
 * the confirmation of a card transaction's pending pull.
 */
export interface CardDueStep extends DueBase {
  readonly kind: "CARD_ACTIVATION" | "CARD_PULL_CONFIRMATION"
}

/**
 * A stablecoin mint or burn's next sandbox step (DECISIONS #360): `steps` is the rest of its
 * plan, the first one due at `dueAtMs`. `transactionId` is the operation's id.
 */
export interface StablecoinOperationDueStep extends DueBase {
  readonly kind: "STABLECOIN_OPERATION"
  readonly steps: ReadonlyArray<StablecoinPlanStep>
}

/**
 * A provider account link the sandbox revokes or invalidates later (DECISIONS #361); `linkedAt`
 * is the link's `updatedAt` when scheduled, so linking the account again cancels it.
 */
export interface StablecoinLinkDueStep extends DueBase {
  readonly kind: "STABLECOIN_PROVIDER_ACCOUNT"
  readonly status: "REVOKED" | "INVALID"
  readonly linkedAt: string
}

/**
 * The due steps, in the server scope (like the outbox's delivery bookkeeping is the engine's
 * own): one read of the ordered index serves every platform (DECISIONS #180). A step is consumed
 * in the transaction that applies it; a platform's reset or import removes its steps.
 */
export const DueSteps = collection<DueStepRecord>()("dueSteps", (d) => d.id, {
  dueAt: { kind: "ordered", keys: (d) => sortableInstant(d.dueAtMs) },
  transaction: { kind: "plain", keys: (d) => `${d.scope}|${d.transactionId}` },
  scope: { kind: "plain", keys: (d) => d.scope }
})
