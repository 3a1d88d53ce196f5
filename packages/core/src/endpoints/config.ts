import { PlatformConfigUpdate } from "../domain/platform/config.ts"
import { getPlatformConfig, updatePlatformConfig } from "../operations/platform/config.ts"
import { endpoint } from "./define.ts"

/** The platform's configuration: UMA domain, webhook URL, currencies and the rest (DECISIONS #240–#243). */
export const configEndpoints = [
  endpoint({
    group: "platform",
    name: "getConfig",
    method: "GET",
    path: "/config",
    operationId: "getPlatformConfig",
    status: 200,
    summary: "Read the platform's configuration",
    run: (r) => getPlatformConfig(r.platform)
  }),
  endpoint({
    group: "platform",
    name: "updateConfig",
    method: "PATCH",
    path: "/config",
    operationId: "updatePlatformConfig",
    status: 200,
    summary: "Change the given settings; a new webhookEndpoint counts at once and is sent a TEST event",
    body: PlatformConfigUpdate,
    run: (r) => updatePlatformConfig(r.platform, r.body)
  })
]
