/**
 * The sandbox's real-time funding instructions (a quote with a REALTIME_FUNDING source): fixed
 * sandbox bank details per currency, with the quote's own reference so a payment to them can be
 * matched to it. Paying them is simulated by `POST /sandbox/send`; no money arrives otherwise.
 */
export interface FundingInstruction {
  readonly accountOrWalletInfo: Readonly<Record<string, unknown>> & { readonly accountType: string }
  readonly instructionsNotes: string
  readonly isPlatformAccount: boolean
}

const SANDBOX_BANK = "Tessera Sandbox Bank"

/** The instructions' reference for a quote: derived from its id, stable across reads. */
export const fundingReference = (quoteId: string): string => `TSR-${quoteId.slice(quoteId.indexOf(":") + 1, quoteId.indexOf(":") + 9).toUpperCase()}`

const accounts: Readonly<Record<string, (reference: string) => FundingInstruction["accountOrWalletInfo"]>> = {
  USD: (reference) => ({ accountType: "USD_ACCOUNT", paymentRails: ["RTP", "FEDNOW"], accountNumber: "9900000001", routingNumber: "021000021", bankName: SANDBOX_BANK, reference }),
  EUR: (reference) => ({ accountType: "EUR_ACCOUNT", paymentRails: ["SEPA_INSTANT"], iban: "DE89370400440532013000", swiftCode: "COBADEFFXXX", bankName: SANDBOX_BANK, reference }),
  MXN: (reference) => ({ accountType: "MXN_ACCOUNT", paymentRails: ["SPEI"], clabeNumber: "002010077777777771", bankName: SANDBOX_BANK, reference })
}

/** Currencies a quote can be funded in real time (anything else: 400 INVALID_CURRENCY). */
export const realtimeFundingCurrencies: ReadonlyArray<string> = Object.keys(accounts)

export const fundingInstructions = (currency: string, quoteId: string): ReadonlyArray<FundingInstruction> | undefined => {
  const account = accounts[currency]
  if (account === undefined) return undefined
  const reference = fundingReference(quoteId)
  return [{ accountOrWalletInfo: account(reference), instructionsNotes: `Include reference ${reference} with the payment`, isPlatformAccount: true }]
}
