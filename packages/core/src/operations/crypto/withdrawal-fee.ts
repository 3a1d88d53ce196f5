import { Effect, Option, Schema } from "effect"
import { InternalAccounts } from "../../domain/collections.ts"
import { CurrencyCode, NonEmpty } from "../../domain/common.ts"
import { AmountOutOfRange, InvalidCurrency } from "../../domain/errors.ts"
import { chains } from "../../domain/external-accounts/chains.ts"
import { decodeInput, invalidInput } from "../../domain/field-errors.ts"
import { isId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { Store } from "../../ports/store.ts"
import { sandboxCurrencies } from "../../sandbox/exchange-rates.ts"
import { sandboxNetworks } from "../../sandbox/withdrawal-fees.ts"

/**
 * `POST /crypto/estimate-withdrawal-fee` (DECISIONS #179): the sandbox's fixed network fee of the
 * network, converted into the withdrawal currency (rounded up), no application fee. Nothing is
 * stored or moved: it is an estimate.
 */
export const WithdrawalFeeBody = Schema.Struct({
  internalAccountId: NonEmpty(128),
  currency: CurrencyCode,
  cryptoNetwork: Schema.Literal(...(sandboxNetworks.map((n) => n.network) as [string, ...Array<string>])),
  amount: Schema.Int.pipe(
    Schema.greaterThan(0, { message: () => "must be greater than 0" }),
    Schema.lessThanOrEqualTo(Number.MAX_SAFE_INTEGER, { message: () => `must be at most ${Number.MAX_SAFE_INTEGER}` })
  ),
  destinationAddress: NonEmpty(256)
}).annotations({ identifier: "EstimateCryptoWithdrawalFeeRequest" })

export const estimateWithdrawalFee = (platform: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeInput(WithdrawalFeeBody)(body)
    const network = sandboxNetworks.find((n) => n.network === input.cryptoNetwork)!
    // Where the network has an address format Tessera checks (the external accounts' wallet rules), it must hold.
    const chain = chains[`${network.network}_WALLET`]
    if (chain !== undefined && !chain.isAddress(input.destinationAddress))
      return yield* invalidInput([{ field: "destinationAddress", message: `must be ${chain.addressFormat}` }])
    const found = isId("InternalAccount", input.internalAccountId)
      ? yield* (yield* Store).get(InternalAccounts, platform.id, input.internalAccountId)
      : Option.none()
    if (Option.isNone(found)) return yield* Effect.fail(referenceNotFound("InternalAccount", input.internalAccountId))
    const accountCurrency = found.value.balance.currency.code
    if (accountCurrency !== input.currency || !network.currencies.includes(input.currency))
      return yield* Effect.fail(
        new InvalidCurrency({
          message:
            accountCurrency !== input.currency
              ? `The internal account holds ${accountCurrency}, not the currency given`
              : `${network.network} does not carry the currency given (it carries ${network.currencies.join(", ")})`,
          details: { currency: input.currency, accountCurrency, cryptoNetwork: network.network, networkCurrencies: network.currencies }
        })
      )
    const currency = sandboxCurrencies.find((c) => c.code === input.currency)!
    const feeUsd = (network.networkFee / 10 ** network.feeAssetDecimals) * network.feeAssetUsd
    const applicationFee = 0
    const totalFee = Math.ceil((feeUsd / currency.usdValue) * 10 ** currency.decimals - 1e-9) + applicationFee
    if (input.amount <= totalFee)
      return yield* Effect.fail(
        new AmountOutOfRange({
          message: "The amount does not cover the withdrawal's fees",
          details: { amount: input.amount, totalFee, minimum: totalFee + 1 }
        })
      )
    return { networkFee: network.networkFee, networkFeeAsset: network.feeAsset, applicationFee, totalFee, netAmount: input.amount - totalFee }
  })
