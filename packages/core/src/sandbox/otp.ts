/** The sandbox's only OTP (spec, Authentication 10): delivery is skipped, HPKE is real. */
export const OTP_SANDBOX_CODE = "000000"
