import { SCA_COUNTRIES } from "./sca.ts"

/**
 * Which customers' provider requires contact verification (the reference: "e.g. EU customers";
 * `contactVerification` "only present when the customer's regulatory jurisdiction requires
 * it"). The jurisdiction is the customer's `region`, and the rule is the EU/EEA, the same
 * countries as strong customer authentication. Both channels, email and phone, are required.
 */
export const requiresContactVerification = (region: string | undefined): boolean => region !== undefined && SCA_COUNTRIES.has(region)
