import { describe, expect, it } from 'vitest'
import { checkBoundaries, cycleRule, findImports, unitOf } from './boundaries.ts'

/** The rule a one-line file breaks, or null when the linter lets it through. */
function ruleFor(path: string, line: string): string | null {
  return checkBoundaries([{ path, text: `${line}\n` }])[0]?.rule ?? null
}

describe('import boundaries', () => {
  it('reads static, type-only, re-exported, multi-line, dynamic and mocked imports', () => {
    const text = [
      "import { a } from './a.ts'",
      "import type { B } from '#server/b.ts'",
      'import {',
      '  c,',
      '  d,',
      "} from '#shared/c.ts'",
      "export { e } from './e.ts'",
      "import './styles.css'",
      "const f = await import('#web/f.tsx')",
      "vi.mock('#server/g.ts')",
    ].join('\n')
    expect(findImports(text)).toEqual([
      { specifier: './a.ts', line: 1, isTypeOnly: false },
      { specifier: '#server/b.ts', line: 2, isTypeOnly: true },
      { specifier: '#shared/c.ts', line: 6, isTypeOnly: false },
      { specifier: './e.ts', line: 7, isTypeOnly: false },
      { specifier: './styles.css', line: 8, isTypeOnly: false },
      { specifier: '#web/f.tsx', line: 9, isTypeOnly: false },
      { specifier: '#server/g.ts', line: 10, isTypeOnly: false },
    ])
  })

  it('groups files into features, component groups and first folders', () => {
    expect(unitOf('src/server/features/generations/job-queue.ts')).toBe('src/server/features/generations')
    expect(unitOf('src/web/components/ui/button.tsx')).toBe('src/web/components/ui')
    expect(unitOf('src/server/db/schema/generations.ts')).toBe('src/server/db')
    expect(unitOf('src/server/app.ts')).toBe('src/server')
    expect(unitOf('bench/lib/report.ts')).toBe('bench')
  })

  it('wants relative paths inside a folder and an alias outside it', () => {
    const leaving = ruleFor(
      'src/server/features/assets/assets.service.ts',
      "import { x } from '../../db/client.ts'",
    )
    expect(leaving).toMatch(/uses an alias/)
    const aliasInside = ruleFor('src/server/db/client.ts', "import { x } from '#server/db/schema/index.ts'")
    expect(aliasInside).toMatch(/is relative/)
    expect(ruleFor('src/server/db/client.ts', "import { x } from './schema/index.ts'")).toBeNull()
    expect(ruleFor('src/server/app.ts', "import { x } from './features/assets/assets.routes.ts'")).toMatch(
      /uses an alias/,
    )
    // bench and scripts have no alias of their own: relative between them is fine.
    expect(ruleFor('bench/run.ts', "import { run } from '../scripts/lib/run.ts'")).toBeNull()
  })

  it('keeps shared free of everything else', () => {
    expect(ruleFor('src/shared/plans.ts', "import type { X } from '#server/config.ts'")).toMatch(
      /shared imports only/,
    )
    expect(ruleFor('src/shared/plans.ts', "import { t } from '#web/lib/i18n.tsx'")).toMatch(
      /shared imports only/,
    )
    expect(ruleFor('src/shared/plans.ts', "import { z } from 'zod'")).toBeNull()
  })

  it('lets the web import server types, never server values', () => {
    const value = ruleFor('src/web/lib/api-client.ts', "import { createApp } from '#server/app.ts'")
    expect(value).toMatch(/server types only/)
    expect(ruleFor('src/web/lib/api-client.ts', "import type { AppType } from '#server/app.ts'")).toBeNull()
    // `import { type X }` keeps a side-effect import at run time, so it counts as a value import.
    expect(ruleFor('src/web/lib/api-client.ts', "import { type AppType } from '#server/app.ts'")).toMatch(
      /server types only/,
    )
  })

  it('keeps web features apart, and pages above them', () => {
    const file = 'src/web/features/library/components/generation-card.tsx'
    expect(ruleFor(file, "import { x } from '#web/features/studio/api/studio-api.ts'")).toMatch(
      /never another feature/,
    )
    expect(ruleFor(file, "import { x } from '#web/app/routes/library.tsx'")).toMatch(/never imports pages/)
    expect(ruleFor(file, "import { Button } from '#web/components/ui/button.tsx'")).toBeNull()
    expect(ruleFor(file, "import { apiRequest } from '#web/lib/api-client.ts'")).toBeNull()
    expect(
      ruleFor('src/web/app/routes/library.tsx', "import { x } from '#web/features/library/a.tsx'"),
    ).toBeNull()
    expect(
      ruleFor('src/web/components/layout/site-header.tsx', "import { x } from '#web/features/a/b.tsx'"),
    ).toMatch(/never import features/)
    expect(ruleFor('src/web/lib/i18n.tsx', "import { x } from '#web/app/router.tsx'")).toMatch(
      /never import features/,
    )
  })

  it('lets a server feature reach another only through its service', () => {
    const file = 'src/server/features/generations/generations.service.ts'
    expect(ruleFor(file, "import { x } from '#server/features/quota/storage-quota.ts'")).toMatch(
      /\*\.service\.ts/,
    )
    expect(ruleFor(file, "import { x } from '#server/features/quota/quota.service.ts'")).toBeNull()
    expect(ruleFor(file, "import { x } from '#server/jobs/worker.ts'")).toMatch(/never imports the worker/)
    expect(ruleFor(file, "import type { AppDeps } from '#server/app.ts'")).toMatch(/never imports the worker/)
    expect(ruleFor(file, "import { x } from '#server/v1/public-api.present.ts'")).toMatch(
      /never imports the worker/,
    )
  })

  it('lets /v1 and the test hooks reach a feature only through its service', () => {
    for (const file of ['src/server/v1/public-api.routes.ts', 'src/server/test-hooks/test-hooks.routes.ts']) {
      expect(ruleFor(file, "import { x } from '#server/features/quota/storage-quota.ts'")).toMatch(
        /\*\.service\.ts/,
      )
      expect(ruleFor(file, "import { x } from '#server/features/quota/quota.service.ts'")).toBeNull()
    }
  })

  it('keeps infrastructure below the features', () => {
    for (const file of [
      'src/server/db/client.ts',
      'src/server/http/session.ts',
      'src/server/events/notifier.ts',
    ]) {
      expect(ruleFor(file, "import { x } from '#server/features/quota/quota.service.ts'")).toMatch(
        /infrastructure/,
      )
    }
    expect(
      ruleFor('src/server/jobs/worker.ts', "import { x } from '#server/features/webhooks/deliver.ts'"),
    ).toBeNull()
  })

  it('keeps test code out of the application, but lets its tests use it', () => {
    expect(ruleFor('src/server/app.ts', "import { x } from '#tests/support/factories.ts'")).toMatch(
      /never imports test code/,
    )
    expect(ruleFor('src/server/app.test.ts', "import { x } from '#tests/support/factories.ts'")).toBeNull()
  })
})

describe('npm run lint', () => {
  it('fails on a file that crosses a boundary, and passes once it is gone', async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { spawnSync } = await import('node:child_process')
    const root = await mkdtemp(join(tmpdir(), 'vitrin-boundaries-'))
    try {
      await mkdir(join(root, 'src/web/features/library'), { recursive: true })
      await mkdir(join(root, 'src/web/features/studio'), { recursive: true })
      await writeFile(join(root, 'src/web/features/studio/studio-api.ts'), 'export const x = 1\n')
      const violating = join(root, 'src/web/features/library/list.ts')
      await writeFile(violating, "import { x } from '#web/features/studio/studio-api.ts'\n")
      const check = () =>
        spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-boundaries.ts', root], {
          encoding: 'utf8',
        })
      const failed = check()
      expect(failed.status).toBe(1)
      expect(failed.stderr).toContain('src/web/features/library/list.ts:1')
      await writeFile(violating, "import { x } from './other.ts'\n")
      expect(check().status).toBe(0)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
  it('refuses folders that import each other in a circle, naming the imports that close it', () => {
    const quota = {
      path: 'src/server/features/quota/quota.service.ts',
      text: "import { a } from '#server/features/billing/plan.service.ts'\n",
    }
    const billing = {
      path: 'src/server/features/billing/plan.service.ts',
      text: "import { b } from '#server/features/quota/quota.service.ts'\n",
    }
    const circle = checkBoundaries([quota, billing])
    expect(circle.map((v) => v.file)).toEqual([billing.path, quota.path])
    expect(circle[0]?.rule).toBe(
      `${cycleRule}: src/server/features/billing → src/server/features/quota (src/server/features/billing, src/server/features/quota)`,
    )
    // One way only is fine; so is a circle through tests, and two root files of one source root.
    expect(checkBoundaries([quota, { ...billing, text: "import { b } from '#shared/plans.ts'\n" }])).toEqual(
      [],
    )
    expect(
      checkBoundaries([quota, { ...billing, path: 'src/server/features/billing/plan.service.test.ts' }]),
    ).toEqual([])
    expect(
      checkBoundaries([
        { path: 'src/server/app.ts', text: "import { r } from '#server/features/quota/quota.routes.ts'\n" },
        {
          path: 'src/server/features/quota/quota.routes.ts',
          text: "import { c } from '#server/config.ts'\n",
        },
      ]),
    ).toEqual([])
    // A circle through a third folder is found too, type-only imports included.
    const third = checkBoundaries([
      { path: 'src/web/lib/a.ts', text: "import type { X } from '#web/components/ui/b.tsx'\n" },
      { path: 'src/web/components/ui/b.tsx', text: "import { Y } from '#web/components/layout/c.tsx'\n" },
      { path: 'src/web/components/layout/c.tsx', text: "import { Z } from '#web/lib/a.ts'\n" },
    ])
    expect(third.filter((v) => v.rule.startsWith(cycleRule))).toHaveLength(3)
  })
})
