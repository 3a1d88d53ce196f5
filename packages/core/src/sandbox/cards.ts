/**
 * The sandbox language of cards (notes, "Cards, and other sandbox magic"): what the issuer does
 * with a new card, which funding sources it refuses, and how Authorization Decisioning answers
 * a simulated authorization, each by the last three characters of a value (DECISIONS #202).
 */

/** What the issuer does with a new card, by the suffix of `platformCardId` (else `cardholderId`). */
export type ProvisioningOutcome = "STAYS_PROCESSING" | "ISSUER_REJECTED" | "DELAYED_ACTIVATION" | "ACTIVE"

export const cardSuffixTable: ReadonlyArray<{ readonly suffix: string; readonly outcome: ProvisioningOutcome }> = [
  { suffix: "001", outcome: "STAYS_PROCESSING" },
  { suffix: "002", outcome: "ISSUER_REJECTED" },
  { suffix: "005", outcome: "DELAYED_ACTIVATION" }
]

export const provisioningOutcome = (platformCardId: string | undefined, cardholderId: string): ProvisioningOutcome =>
  cardSuffixTable.find((r) => r.suffix === (platformCardId ?? cardholderId).slice(-3))?.outcome ?? "ACTIVE"

/** A funding source whose id ends in one of these is refused with FUNDING_SOURCE_INELIGIBLE. */
export const ineligibleFundingSuffixes: ReadonlyArray<string> = ["002", "003"]

export const isIneligibleFundingSource = (accountId: string): boolean => ineligibleFundingSuffixes.includes(accountId.slice(-3))

/** Authorization Decisioning's answer, by the suffix of `merchant.descriptor`. */
export type DecisioningOutcome = "INSUFFICIENT_FUNDS" | "CARD_PAUSED" | "DELAYED_PULL" | "EXCEPTION" | "APPROVED"

export const merchantSuffixTable: ReadonlyArray<{ readonly suffix: string; readonly outcome: DecisioningOutcome }> = [
  { suffix: "002", outcome: "INSUFFICIENT_FUNDS" },
  { suffix: "003", outcome: "CARD_PAUSED" },
  { suffix: "005", outcome: "DELAYED_PULL" },
  { suffix: "006", outcome: "EXCEPTION" }
]

export const decisioningOutcome = (descriptor: string): DecisioningOutcome =>
  merchantSuffixTable.find((r) => r.suffix === descriptor.slice(-3))?.outcome ?? "APPROVED"


/** The Luhn check digit of a string of digits. */
export const luhnCheckDigit = (digits: string): string => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    // From the right, every second digit (starting with the one next to the check digit) doubles.
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 0) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return String((10 - (sum % 10)) % 10)
}

export const passesLuhn = (pan: string): boolean => /^\d{12,19}$/.test(pan) && luhnCheckDigit(pan.slice(0, -1)) === pan.slice(-1)

/** The sandbox's VISA test BIN: every sandbox PAN starts with it. */
export const SANDBOX_BIN = "411111"

/**
 * A card's PAN and CVV from 32 bytes derived from its id and a server secret: the BIN, nine
 * digits from the bytes, the Luhn digit; the CVV is three more digits. The same card always gets
 * the same numbers, and nobody without the server's secret can compute them from the id.
 */
export const cardNumbers = (seed: Uint8Array): { readonly pan: string; readonly cvv: string } => {
  const digits = Array.from(seed, (b) => String(b % 10)).join("")
  const body = SANDBOX_BIN + digits.slice(0, 9)
  return { pan: body + luhnCheckDigit(body), cvv: digits.slice(9, 12) }
}
