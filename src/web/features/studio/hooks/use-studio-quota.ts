import { useEffect, useState } from 'react'
import type { GenerationMode } from '#shared/contracts/generations.ts'
import { getSettings } from '#web/features/settings/api/settings-api.ts'
import { useUsage } from '#web/features/usage/hooks/use-usage.ts'

export type ModeQuota =
  | { kind: 'loading' }
  | { kind: 'unlimited' }
  | { kind: 'own-key' }
  | { kind: 'no-plan' }
  | { kind: 'metered'; left: number; quota: number; resource: 'images' | 'videos' }

/**
 * What the quota allows for each mode, from /api/usage (and whether the user's own fal key
 * takes image and video jobs off the quota). The server checks again on every request.
 */
export function useStudioQuota() {
  const usage = useUsage()
  const [ownKey, setOwnKey] = useState(false)

  useEffect(() => {
    let isActive = true
    getSettings().then(
      (settings) => {
        if (isActive) setOwnKey(settings.byoApiEnabled && settings.falKey.isSet)
      },
      () => undefined,
    )
    return () => {
      isActive = false
    }
  }, [])

  function forMode(mode: GenerationMode): ModeQuota {
    if (mode === 'seo') return { kind: 'unlimited' }
    if (usage.status !== 'ready') return { kind: 'loading' }
    if (!usage.usage.subscription) return { kind: 'no-plan' }
    if (ownKey) return { kind: 'own-key' }
    const resource = mode === 'image' ? 'images' : 'videos'
    const { used, quota } = usage.usage[resource]
    return { kind: 'metered', left: Math.max(0, quota - used), quota, resource }
  }

  return { forMode, reload: usage.reload, usage }
}

/** True when the quota shown stops a job of this mode before it is sent. */
export function isBlocked(quota: ModeQuota): boolean {
  return quota.kind === 'no-plan' || (quota.kind === 'metered' && quota.left <= 0)
}
