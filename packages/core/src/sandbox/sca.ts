/**
 * Strong customer authentication applies to customers in the EU/EEA (by address, else
 * nationality); elsewhere every SCA endpoint answers 409 (DECISIONS #220).
 */
export const SCA_COUNTRIES: ReadonlySet<string> = new Set(
  "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO".split(" ")
)

/** The country that decides whether SCA applies to a customer: its address's, else its nationality. */
export const scaCountryOf = (customer: { readonly address?: { readonly country?: string } | undefined; readonly nationality?: string | undefined }) =>
  customer.address?.country ?? customer.nationality

export const scaApplies = (customer: Parameters<typeof scaCountryOf>[0]): boolean => {
  const country = scaCountryOf(customer)
  return country !== undefined && SCA_COUNTRIES.has(country)
}

/**
 * The sandbox's WebAuthn relying party for SCA passkeys (DECISIONS #223): registration options
 * name it, and a credential or assertion must come from its origin.
 */
export const SCA_PASSKEY_RP_ID = "sca.tessera.sandbox"
export const SCA_PASSKEY_ORIGINS: ReadonlyArray<string> = [`https://${SCA_PASSKEY_RP_ID}`]

/** The sandbox's liveness handles for a 2FA reset (opaque to the client). */
export const resetVerificationLink = (resetId: string) => `https://liveness.tessera.sandbox/reset/${encodeURIComponent(resetId)}`
