import { useCallback, useState } from 'react'
import { useSearchParams } from 'react-router'
import {
  type CreateGenerationRequest,
  type GenerationView,
  isTerminalStatus,
} from '#shared/contracts/generations.ts'
import type { ErrorCode } from '#shared/errors.ts'
import { ApiError } from '#web/lib/api-client.ts'
import { cancelGeneration, createGeneration, createVideoFrom } from '../api/generations-api.ts'
import { useGenerationWatch } from './use-generation.ts'

/**
 * The job a studio page is showing, kept in the address (`?job=<id>&video=<id>`) so a reload or
 * a return from elsewhere picks it up again. `job` is the first generation (image or SEO, or a
 * video straight from the photo); `video` a video made from the job's image result.
 */
export function useStudioJob(options: { onSettled: () => void }) {
  const [params, setParams] = useSearchParams()
  const jobId = params.get('job')
  const videoId = params.get('video')
  const [initial, setInitial] = useState<GenerationView | null>(null)
  const [startError, setStartError] = useState<ErrorCode | 'NETWORK' | null>(null)
  const [videoStartError, setVideoStartError] = useState<ErrorCode | 'NETWORK' | null>(null)
  const [isStarting, setStarting] = useState(false)
  const [isStartingVideo, setStartingVideo] = useState(false)
  const [isCanceling, setCanceling] = useState(false)

  const job = useGenerationWatch(jobId, { initial, onSettled: options.onSettled })
  const video = useGenerationWatch(videoId, { initial, onSettled: options.onSettled })

  const show = useCallback(
    (next: { job?: string | null; video?: string | null }) => {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current)
          for (const [key, value] of Object.entries(next)) {
            if (value) updated.set(key, value)
            else updated.delete(key)
          }
          return updated
        },
        { replace: true },
      )
    },
    [setParams],
  )

  async function start(request: CreateGenerationRequest) {
    setStarting(true)
    setStartError(null)
    setVideoStartError(null)
    try {
      const generation = await createGeneration(request)
      setInitial(generation)
      show({ job: generation.id, video: null })
    } catch (error) {
      setStartError(error instanceof ApiError ? error.code : 'NETWORK')
    } finally {
      setStarting(false)
      // The reservation shows in the meters at once.
      options.onSettled()
    }
  }

  async function startVideo(fromId: string, prompt: string) {
    setStartingVideo(true)
    setVideoStartError(null)
    try {
      const generation = await createVideoFrom(fromId, { prompt })
      setInitial(generation)
      show({ video: generation.id })
    } catch (error) {
      setVideoStartError(error instanceof ApiError ? error.code : 'NETWORK')
    } finally {
      setStartingVideo(false)
      options.onSettled()
    }
  }

  async function cancel(id: string) {
    setCanceling(true)
    try {
      await cancelGeneration(id)
    } catch {
      // The watch shows whatever state the job really reached.
    } finally {
      setCanceling(false)
    }
  }

  /** Forgets the result, its error and any video (removing the photo does this). */
  function reset() {
    setInitial(null)
    setStartError(null)
    setVideoStartError(null)
    show({ job: null, video: null })
  }

  const jobGeneration = job.status === 'ready' ? job.generation : null
  const videoGeneration = video.status === 'ready' ? video.generation : null
  // A video made from the result counts too: a new Generate would move the screen off it.
  const isVideoRunning =
    isStartingVideo ||
    (videoId !== null &&
      video.status !== 'error' &&
      (!videoGeneration || !isTerminalStatus(videoGeneration.status)))
  const isBusy =
    isStarting ||
    isVideoRunning ||
    (jobGeneration !== null && !isTerminalStatus(jobGeneration.status)) ||
    (jobId !== null && job.status === 'loading')

  return {
    jobId,
    videoId,
    job,
    video,
    jobGeneration,
    videoGeneration,
    isBusy,
    isStarting,
    isStartingVideo,
    isCanceling,
    startError,
    videoStartError,
    start,
    startVideo,
    cancel,
    reset,
  }
}
