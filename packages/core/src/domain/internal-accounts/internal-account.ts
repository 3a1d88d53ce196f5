import { Schema } from "effect"

export const InternalAccountType = Schema.Literal("INTERNAL_FIAT", "INTERNAL_CRYPTO", "EMBEDDED_WALLET")
export type InternalAccountType = typeof InternalAccountType.Type
export type InternalAccountStatus = "PENDING" | "ACTIVE" | "CLOSED" | "FROZEN" | "FAILED"

export interface Currency {
  readonly code: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number
}

/** Currencies the sandbox provisions accounts in. The Global account holds USDB (notes §3.1). */
export const currencies: Readonly<Record<string, Currency>> = {
  USDB: { code: "USDB", name: "USDB", symbol: "$", decimals: 6 },
  USD: { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 },
  USDC: { code: "USDC", name: "USD Coin", symbol: "USDC", decimals: 6 }
}

export interface InternalAccountRecord {
  readonly id: string
  readonly customerId?: string
  readonly type: InternalAccountType
  readonly status: InternalAccountStatus
  readonly balance: { readonly amount: number; readonly currency: Currency }
  readonly totalBalance: { readonly amount: number; readonly currency: Currency }
  readonly fundingPaymentInstructions: ReadonlyArray<unknown>
  readonly privateEnabled?: boolean
  readonly createdAt: string
  readonly updatedAt: string
}

export const newInternalAccount = (args: {
  readonly id: string
  readonly customerId?: string
  readonly type: InternalAccountType
  readonly currency: Currency
  readonly now: string
}): InternalAccountRecord => {
  const zero = { amount: 0, currency: args.currency }
  // Built as one literal: keys added after a spread take V8's slow path (see createCustomer).
  return {
    id: args.id,
    ...(args.customerId === undefined ? {} : { customerId: args.customerId }),
    type: args.type,
    status: "ACTIVE" as const,
    balance: zero,
    totalBalance: zero,
    fundingPaymentInstructions: [],
    ...(args.type === "EMBEDDED_WALLET" ? { privateEnabled: false } : {}),
    createdAt: args.now,
    updatedAt: args.now
  }
}
