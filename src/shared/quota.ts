/** Quota rules shared by the server (enforcement) and the web app (meters and alerts). */

export type QuotaResource = 'images' | 'videos'

/**
 * The key usage is counted under: the quota period is the subscription's billing period, named
 * by its start (an ISO timestamp). A plan change within the period keeps the start, so usage
 * carries over; a renewal moves it, so usage starts again at 0.
 */
export function quotaPeriodKey(periodStart: Date): string {
  return periodStart.toISOString()
}

/** Alert level by share of quota used: none below 70 %, warning from 70 %, danger from 90 %, blocked at 100 %. */
export type QuotaLevel = 'ok' | 'warning' | 'danger' | 'blocked'

export function quotaLevel(used: number, quota: number): QuotaLevel {
  if (quota <= 0) return 'blocked'
  const percent = (used / quota) * 100
  if (percent >= 100) return 'blocked'
  if (percent >= 90) return 'danger'
  if (percent >= 70) return 'warning'
  return 'ok'
}

/** Whether one more generation of this resource is allowed. */
export function canUse(used: number, quota: number): boolean {
  return used < quota
}

/** Whole percent used, capped at 100, for meters. */
export function percentUsed(used: number, quota: number): number {
  if (quota <= 0) return 100
  return Math.min(100, Math.floor((used / quota) * 100))
}
