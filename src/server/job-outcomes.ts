import { finishBatchAfterJob } from '#server/features/catalogue/finish-batch.service.ts'
import { quotaLedger } from '#server/features/quota/quota.service.ts'
import { generationWebhooks, webhookEvents } from '#server/features/webhooks/webhook-events.service.ts'
import type { JobOutcomes } from '#server/job-queue/outcomes.ts'
import type { Logger } from './logger.ts'

/**
 * What each feature adds to a job's life, registered with the job queue (job-queue/outcomes.ts):
 * the quota held at accept and kept or given back at settle, a finished job's webhook events in
 * its settle statement, and a catalogue row's batch finishing once its job has. A new outcome
 * (a publication, say) is one more entry here and its code in its own feature.
 */
export function jobOutcomes(logger: Logger): JobOutcomes {
  return {
    quota: quotaLedger,
    finished: [generationWebhooks],
    afterSettled: [finishBatchAfterJob(logger, webhookEvents)],
  }
}
