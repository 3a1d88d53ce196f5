import { estimateWithdrawalFee, WithdrawalFeeBody } from "../operations/crypto/withdrawal-fee.ts"
import { LookupQuery, lookupExternalAccount, lookupUma } from "../operations/receivers/lookups.ts"
import { endpoint } from "./define.ts"

/** Receiver lookups (the `lookupId` of a quote to a UMA address), DECISIONS #177, #178. */
export const receiverEndpoints = [
  endpoint({
    group: "receivers",
    name: "lookupUma",
    method: "GET",
    path: "/receiver/uma/{receiverUmaAddress}",
    operationId: "lookupUma",
    status: 200,
    summary: "Look up a UMA address: the currencies it receives, estimated rates, and the lookupId a quote names",
    query: LookupQuery,
    run: (r) => lookupUma(r.platform, r.params.receiverUmaAddress, r.query)
  }),
  endpoint({
    group: "receivers",
    name: "lookupExternalAccount",
    method: "GET",
    path: "/receiver/external-account/{accountId}",
    operationId: "lookupExternalAccount",
    status: 200,
    summary: "Look up an external account: its currency, the estimated rate, and a lookupId",
    query: LookupQuery,
    run: (r) => lookupExternalAccount(r.platform, r.params.accountId, r.query)
  })
]

/** Crypto withdrawals' fee estimate (DECISIONS #179). */
export const cryptoEndpoints = [
  endpoint({
    group: "crypto",
    name: "estimateWithdrawalFee",
    method: "POST",
    path: "/crypto/estimate-withdrawal-fee",
    operationId: "estimateCryptoWithdrawalFee",
    status: 200,
    summary: "Estimate the network and application fees of a crypto withdrawal from an internal account",
    body: WithdrawalFeeBody,
    run: (r) => estimateWithdrawalFee(r.platform, r.body)
  })
]
