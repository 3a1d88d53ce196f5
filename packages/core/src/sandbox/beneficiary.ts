import type { BeneficiaryVerificationStatus } from "../domain/external-accounts/record.ts"

/**
 * Sandbox magic values of external accounts (spec "Sandbox scenarios"), keyed by the last three
 * digits of the account's primary identifier (for identifiers with a domain part, of the user
 * part: `testuser.102@pix.com.br`). 1xx decide the beneficiary name check at creation; 002–005
 * decide transfer outcomes later and are only stored here.
 */
export const beneficiaryCheckTable: ReadonlyArray<{ readonly suffix: string; readonly outcome: BeneficiaryVerificationStatus | "INVALID_ACCOUNT" }> = [
  { suffix: "102", outcome: "NOT_MATCHED" },
  { suffix: "103", outcome: "PARTIAL_MATCH" },
  { suffix: "104", outcome: "PENDING" },
  { suffix: "105", outcome: "INVALID_ACCOUNT" },
  { suffix: "106", outcome: "UNSUPPORTED" },
  { suffix: "107", outcome: "CHECKED_BY_RECEIVING_FI" }
]

export const TRANSFER_SUFFIXES: ReadonlyArray<string> = ["002", "003", "004", "005"]

// The field that identifies the account on its rail, in the order they are looked for.
const IDENTIFIER_FIELDS = ["accountNumber", "iban", "clabeNumber", "pixKey", "phoneNumber", "address", "lightningAddress", "invoice", "bolt12"]

/** The primary identifier of an `accountInfo`, or undefined. */
export const primaryIdentifier = (accountInfo: Readonly<Record<string, unknown>>): string | undefined => {
  for (const f of IDENTIFIER_FIELDS) if (typeof accountInfo[f] === "string") return accountInfo[f] as string
  return Object.entries(accountInfo).find(([k, v]) => k !== "accountType" && typeof v === "string")?.[1] as string | undefined
}

/** The last three characters that count: of the user part when there is an `@`, digits only. */
export const identifierSuffix = (identifier: string): string | undefined => {
  const user = identifier.includes("@") ? identifier.slice(0, identifier.lastIndexOf("@")) : identifier
  const tail = user.slice(-3)
  return /^[0-9]{3}$/.test(tail) ? tail : undefined
}

export const beneficiaryOutcome = (suffix: string | undefined): BeneficiaryVerificationStatus | "INVALID_ACCOUNT" =>
  beneficiaryCheckTable.find((r) => r.suffix === suffix)?.outcome ?? "MATCHED"
