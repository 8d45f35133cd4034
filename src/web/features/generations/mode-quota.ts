import type { UsageResponse } from '#shared/contracts/billing.ts'
import type { GenerationMode } from '#shared/contracts/generations.ts'
import type { SettingsResponse } from '#shared/contracts/settings.ts'
import type { ResourceState } from '#web/lib/use-resource.ts'

export type ModeQuota =
  | { kind: 'loading' }
  | { kind: 'unlimited' }
  | { kind: 'own-key' }
  | { kind: 'no-plan' }
  | { kind: 'metered'; left: number; quota: number; resource: 'images' | 'videos' }

/**
 * What the quota allows for one mode, from /api/usage and /api/settings (the user's own fal key
 * takes image and video jobs off the quota). The page loads both and passes them in; until the
 * settings arrive (or when they fail) the key counts as off. The server checks again on every
 * request.
 */
export function modeQuota(
  mode: GenerationMode,
  usage: ResourceState<UsageResponse>,
  settings: ResourceState<SettingsResponse>,
): ModeQuota {
  if (mode === 'seo') return { kind: 'unlimited' }
  if (usage.status !== 'ready') return { kind: 'loading' }
  if (!usage.data.subscription) return { kind: 'no-plan' }
  const hasOwnKey = settings.status === 'ready' && settings.data.byoApiEnabled && settings.data.falKey.isSet
  if (hasOwnKey) return { kind: 'own-key' }
  const resource = mode === 'image' ? 'images' : 'videos'
  const { used, quota } = usage.data[resource]
  return { kind: 'metered', left: Math.max(0, quota - used), quota, resource }
}

/** True when the quota shown stops a job of this mode before it is sent. */
export function isBlocked(quota: ModeQuota): boolean {
  return quota.kind === 'no-plan' || (quota.kind === 'metered' && quota.left <= 0)
}
