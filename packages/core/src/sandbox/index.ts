/** The whole sandbox language: suffix tables, fixed codes, legacy literals, SCA and contact-verification countries. */
export * from "./beneficiary.ts"
export * from "./kyc.ts"
export * from "./literals.ts"
export * from "./sca.ts"
export * from "./contact-verification.ts"
export * from "./outcomes.ts"
