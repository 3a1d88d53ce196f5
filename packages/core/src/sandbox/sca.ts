/**
 * Strong customer authentication applies to customers in the EU/EEA (by address, else
 * nationality); elsewhere beneficiary trust answers 409.
 */
export const SCA_COUNTRIES: ReadonlySet<string> = new Set(
  "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO".split(" ")
)
