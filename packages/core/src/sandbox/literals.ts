/**
 * The fixed values of the sandbox language (spec, Authentication 10 and "Sandbox scenarios";
 * DECISIONS #19): codes the sandbox always accepts and the legacy literals it still answers.
 */

/** The sandbox's only OTP: delivery is skipped, HPKE is real. */
export const OTP_SANDBOX_CODE = "000000"

/** The reference's sandbox SCA code: every SMS_OTP and TOTP proof (logins, TOTP enrollment, beneficiary trust, quote authorization). */
export const SANDBOX_SCA_CODE = "123456"

/**
 * The reference's sandbox code for contact verification (`verify-email` / `verify-phone` and
 * their `/confirm`): no email or SMS is sent, and this is the only code that confirms.
 */
export const CONTACT_VERIFICATION_SANDBOX_CODE = "123456"

/** Accepted in place of a stamp, except where one named key must sign (DECISIONS #19). */
export const SANDBOX_WALLET_SIGNATURE = "sandbox-valid-signature"

/** Accepted in place of a WebAuthn assertion signature; the credential must still match. */
export const SANDBOX_PASSKEY_SIGNATURE = "sandbox-valid-passkey-signature"

/** No longer a token (DECISIONS #19): refused with 401. */
export const LEGACY_OIDC_LITERAL = "sandbox-valid-oidc-token"

/** Where a LIVENESS ownership challenge sends the account holder (decided with the sandbox control). */
export const LIVENESS_LINK_BASE = "https://liveness.sandbox.tessera.local"

/** Where the End User Terms of each version are published (`GET /customers/end-user-terms`). */
export const END_USER_TERMS_URL_BASE = "https://terms.sandbox.tessera.local/end-user-terms"

/** Where a hosted KYC/KYB link sends the customer; the flow is completed with the sandbox control. */
export const KYC_LINK_BASE = "https://kyc.sandbox.tessera.local/onboard"

/** The provider a hosted KYC link names (the reference's only `KycProvider`). */
export const KYC_LINK_PROVIDER = "SUMSUB"
